/* The core under test on the virtual machine (firmware/machine/), with its serial output
 * captured and parsed back into blocks. Time is driven by the test, a millisecond at a time. */
#ifndef TEST_BOARD_H
#define TEST_BOARD_H

#include <stdint.h>

#include "../core/shoe.h"
#include "../machine/vmachine.h"

typedef struct {
    uint8_t seq;
    uint8_t length;
    uint8_t payload[FRAME_MAX];
} block_t;

extern vmachine_t test_vm;
extern shoe_t test_shoe;

/* Power up with a deck of `cards` face-up cards in the hopper (AS KS QS ... in order). */
void board_power_up(int cards);
void board_reset(void);
void board_run_ms(unsigned ms);
void board_send(uint8_t seq, const uint8_t *payload, uint8_t length);
void board_send_bytes(const uint8_t *bytes, uint8_t length);

/* The next block the shoe sent, oldest first; 0 when none is left. */
int board_next_block(block_t *out);
/* The last result (done/fault) sent, skipping acks and events; 0 when none. */
int board_last_result(block_t *out);
void board_forget_output(void);

/* Convenience: identify (and drain), then the action blocks below. */
void board_identify(void);
block_t board_query(uint8_t message);

#endif
