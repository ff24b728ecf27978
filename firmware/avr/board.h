/* What avr/main.c needs from the ATmega328P board beyond the core's HAL. */
#ifndef SHOE_BOARD_H
#define SHOE_BOARD_H

#include <stdint.h>

void board_init(void);
uint16_t board_next_boot_id(void); /* increments the EEPROM boot counter */
uint8_t board_reset_cause(void);   /* MCUSR as it was at reset */
uint16_t board_millis(void);
int16_t board_serial_read(void);   /* -1 when the receive ring is empty */
void board_idle(uint16_t last_tick); /* sleep until a byte or a tick */

#endif
