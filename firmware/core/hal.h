/* What the core needs from a board: sensors in, motors out, a serial line.
 * Implemented by avr/hal_avr.c (the ATmega328P) and native/hal_native.c (the simulated machine). */
#ifndef SHOE_HAL_H
#define SHOE_HAL_H

#include <stdint.h>

/* Sensor bits, already converted to "true means the thing is there", whatever the wiring's
 * active level: the board HAL owns the electrical details. */
enum {
    IN_PASS = 1 << 0,         /* TCRT5000 at the read station's throat: a card is passing */
    IN_STATION = 1 << 1,      /* TCRT5000 under the rest position: a card rests at the station */
    IN_HOPPER_EMPTY = 1 << 2, /* TCRT5000 through the hopper floor sees no card */
    IN_HOME = 1 << 3,         /* carousel home flag */
    IN_DOOR_OPEN = 1 << 4,
    IN_ESTOP = 1 << 5,
    IN_BEAM_FIRST = 1 << 6,   /* break beam of pocket p is IN_BEAM_FIRST << p */
};
#define IN_BEAM(p) ((uint16_t)(IN_BEAM_FIRST << (p)))
#define IN_ANY_BEAM (IN_BEAM(0) | IN_BEAM(1) | IN_BEAM(2) | IN_BEAM(3))

uint16_t hal_read_inputs(void);
void hal_feed_motor(uint8_t on);
void hal_exit_motor(uint8_t on);
void hal_stepper_enable(uint8_t on);
void hal_step(int8_t direction); /* one full step, +1 or -1 */
void hal_serial_write(const uint8_t *bytes, uint8_t length);

#endif
