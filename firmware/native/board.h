/* The host-native board: the firmware core's HAL over the virtual machine and a pty. */
#ifndef NATIVE_BOARD_H
#define NATIVE_BOARD_H

#include "../machine/serial_pty.h"
#include "../machine/vmachine.h"

typedef struct {
    vmachine_t vm;
    serial_pty_t pty;
    uint16_t eeprom_boot_count; /* survives `reset`, like the AVR's EEPROM */
} native_board_t;

/* The HAL functions have no context argument (on the AVR they are registers): they act on
 * the one board this process simulates, set here once at start. */
void native_board_attach(native_board_t *board);

#endif
