/* The core's HAL on the host: sensors and motors are the virtual machine's, the serial line
 * is a pty. */
#include <unistd.h>

#include "../core/hal.h"
#include "board.h"

static native_board_t *board;

void native_board_attach(native_board_t *b)
{
    board = b;
}

uint16_t hal_read_inputs(void)
{
    return vm_sensors(&board->vm);
}

void hal_feed_motor(uint8_t on)
{
    board->vm.feed_on = on;
}

void hal_exit_motor(uint8_t on)
{
    board->vm.exit_on = on;
}

void hal_stepper_enable(uint8_t on)
{
    board->vm.stepper_on = on;
}

void hal_step(int8_t direction)
{
    vm_step(&board->vm, direction);
}

void hal_serial_write(const uint8_t *bytes, uint8_t length)
{
    /* Nobody reading and the pty full: the bytes are lost, as on an unplugged cable. */
    (void)!write(board->pty.master, bytes, length);
}
