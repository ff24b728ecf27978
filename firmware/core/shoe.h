/* The shoe as the host sees it: blocks in, sequence rules, one cached result, blocks out
 * (PROTOCOL.md §2). Boards call shoe_init once, shoe_receive for every byte, shoe_tick
 * every millisecond. */
#ifndef SHOE_SHOE_H
#define SHOE_SHOE_H

#include <stdint.h>
#include "frame.h"
#include "machine.h"

/* A block whose bytes stop arriving for this long is abandoned (a byte takes 87 us). */
#define FRAME_GAP_MS 20

typedef struct {
    machine_t machine;
    frame_decoder_t decoder;
    uint8_t expected;   /* next action SEQ we accept */
    uint8_t identified; /* a host has asked `identify` since boot */
    uint8_t has_result; /* `last` answers action `last_seq` */
    uint8_t running_seq;
    uint8_t last_seq;
    result_t last;
    uint8_t last_action;
    uint16_t boot_id;
    uint16_t last_byte_ms;
} shoe_t;

void shoe_init(shoe_t *s, uint16_t boot_id, uint8_t reset_cause, uint16_t now);
void shoe_receive(shoe_t *s, uint8_t byte, uint16_t now);
void shoe_tick(shoe_t *s, uint16_t now);

#endif
