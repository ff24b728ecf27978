/* Block framing (PROTOCOL.md §1): LEN SEQ PAYLOAD CRC16 SYNC, no byte stuffing. */
#ifndef SHOE_FRAME_H
#define SHOE_FRAME_H

#include <stdint.h>
#include "protocol.h"

typedef struct {
    uint8_t buf[FRAME_MAX];
    uint8_t fill;
    uint8_t discarding; /* after a bad block: skip up to and including the next SYNC */
    uint16_t rejected;  /* blocks dropped for length, sync or CRC: a link-quality figure */
} frame_decoder_t;

typedef struct {
    uint8_t seq;
    uint8_t length; /* payload bytes */
    const uint8_t *payload;
} frame_t;

void frame_decoder_init(frame_decoder_t *d);

/* Feed one received byte; returns 1 and fills *out when it completes a valid block.
 * out->payload points into the decoder and stays valid until the next push. */
uint8_t frame_decoder_push(frame_decoder_t *d, uint8_t byte, frame_t *out);

/* The line went quiet: drop a partial block, and stop skipping towards a SYNC. */
void frame_decoder_abandon(frame_decoder_t *d);

/* Build a block into out (FRAME_MAX bytes); returns its length. */
uint8_t frame_encode(uint8_t *out, uint8_t seq, const uint8_t *payload, uint8_t length);

#endif
