/* The shoe controller on an ATmega328P: the core, driven by the UART and a 1 kHz tick. */
#include "../core/shoe.h"
#include "board.h"

int main(void)
{
    static shoe_t shoe; /* static: its size shows in .bss, where avr-size counts it */
    board_init();
    uint16_t tick = board_millis();
    shoe_init(&shoe, board_next_boot_id(), board_reset_cause(), tick);
    for (;;) {
        for (int16_t byte = board_serial_read(); byte >= 0; byte = board_serial_read())
            shoe_receive(&shoe, (uint8_t)byte, tick);
        /* Catch up tick by tick, so every timeout counts whole milliseconds. */
        uint16_t now = board_millis();
        while (tick != now) {
            tick++;
            shoe_tick(&shoe, tick);
        }
        board_idle(tick);
    }
}
