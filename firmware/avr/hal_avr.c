/* The ATmega328P board: pins from pins.h, an interrupt-driven UART receive ring,
 * a 1 kHz Timer0 tick, the EEPROM boot counter and the MCUSR reset cause. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <util/atomic.h>
#include <util/delay.h>

#include "../core/hal.h"
#include "board.h"
#include "pins.h"

#define BAUD 115200UL
#define RX_RING 64 /* a power of two: holds one full block while the main loop is busy */

static volatile uint8_t rx_ring[RX_RING];
static volatile uint8_t rx_head;
static uint8_t rx_tail;
static volatile uint16_t milliseconds;

/* Saved by reset_cause_capture() before the C runtime starts; survives the runtime's init. */
static uint8_t reset_cause __attribute__((section(".noinit")));

/* The watchdog stays on after a watchdog reset: turn it off before the runtime's init. */
void reset_cause_capture(void) __attribute__((naked, used, section(".init3")));
void reset_cause_capture(void)
{
    reset_cause = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & (RX_RING - 1));
    if (next != rx_tail) { /* full: drop the byte; the CRC rejects the block, the host resends */
        rx_ring[rx_head] = byte;
        rx_head = next;
    }
}

ISR(TIMER0_COMPA_vect)
{
    milliseconds++;
}

#define LEVEL_HIGH 1
#define LEVEL_LOW 0

static void init_pins(void)
{
#define INPUT_INIT(sig, port, bit, nano, level, hal, wiring) \
    DDR##port &= (uint8_t)~_BV(bit); PORT##port |= _BV(bit);
#define OUTPUT_INIT(sig, port, bit, nano, level, wiring) \
    PORT##port = LEVEL_##level ? (PORT##port & (uint8_t)~_BV(bit)) : (PORT##port | _BV(bit)); \
    DDR##port |= _BV(bit);
    SHOE_INPUTS(INPUT_INIT)
    SHOE_OUTPUTS(OUTPUT_INIT)
#undef INPUT_INIT
#undef OUTPUT_INIT
}

#define SET_OUTPUT(sig, port, bit, level, on) do { \
        if ((on) == LEVEL_##level) PORT##port |= _BV(bit); \
        else PORT##port &= (uint8_t)~_BV(bit); \
    } while (0)
#define DRIVE(sig, port, bit, nano, level, wiring) \
    static void drive_##sig(uint8_t on) { SET_OUTPUT(sig, port, bit, level, on ? 1 : 0); }
SHOE_OUTPUTS(DRIVE)
#undef DRIVE

uint16_t hal_read_inputs(void)
{
    uint16_t in = 0;
#define READ_INPUT(sig, port, bit, nano, level, hal, wiring) \
    if (((PIN##port >> (bit)) & 1) == LEVEL_##level) in |= (hal);
    SHOE_INPUTS(READ_INPUT)
#undef READ_INPUT
    return in;
}

void hal_feed_motor(uint8_t on) { drive_FEED(on); }
void hal_exit_motor(uint8_t on) { drive_EXIT(on); }
void hal_stepper_enable(uint8_t on) { drive_STEPPER_EN(on); }

void hal_step(int8_t direction)
{
    drive_DIR(direction > 0);
    _delay_us(1); /* A4988: DIR set-up 200 ns, STEP high at least 1 us */
    drive_STEP(1);
    _delay_us(2);
    drive_STEP(0);
}

void hal_serial_write(const uint8_t *bytes, uint8_t length)
{
    for (uint8_t i = 0; i < length; i++) {
        loop_until_bit_is_set(UCSR0A, UDRE0);
        UDR0 = bytes[i];
    }
}

void board_init(void)
{
    init_pins();
    drive_LIGHT(1);
    /* 115200 baud from 16 MHz: U2X and UBRR 16 give 117 647 baud (+2.1 %, as the Arduino core
     * does); without U2X the nearest is -3.5 %, beyond what the USB-serial chip tolerates. */
    UCSR0A = _BV(U2X0);
    UBRR0 = (uint16_t)(F_CPU / (8 * BAUD) - 1 + 0.5);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    /* Timer0 CTC: 16 MHz / 64 / 250 = 1 kHz */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    wdt_enable(WDTO_500MS);
    sei();
}

uint16_t board_next_boot_id(void)
{
    uint16_t *const address = (uint16_t *)0;
    uint16_t boot_id = (uint16_t)(eeprom_read_word(address) + 1);
    eeprom_update_word(address, boot_id);
    return boot_id;
}

uint8_t board_reset_cause(void)
{
    return reset_cause;
}

uint16_t board_millis(void)
{
    uint16_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = milliseconds; }
    return now;
}

int16_t board_serial_read(void)
{
    if (rx_tail == rx_head)
        return -1;
    uint8_t byte = rx_ring[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) & (RX_RING - 1));
    return byte;
}

void board_idle(uint16_t last_tick)
{
    wdt_reset();
    /* Sleep only if no byte and no tick arrived since we looked: interrupts wake us. */
    cli();
    if (rx_tail == rx_head && milliseconds == last_tick) {
        SMCR = _BV(SE); /* idle mode: timers and the UART keep running */
        sei();
        __asm__ __volatile__("sleep");
        SMCR = 0;
    }
    sei();
}
