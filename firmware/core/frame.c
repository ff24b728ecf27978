#include "frame.h"
#include "crc16.h"

void frame_decoder_init(frame_decoder_t *d)
{
    d->fill = 0;
    d->discarding = 0;
    d->rejected = 0;
}

void frame_decoder_abandon(frame_decoder_t *d)
{
    if (d->fill)
        d->rejected++;
    d->fill = 0;
    /* After a silence the next byte starts a block: no need to wait for a SYNC, which would
     * be the end of that block and would cost the host one more retransmission. */
    d->discarding = 0;
}

static void reject(frame_decoder_t *d, uint8_t byte)
{
    d->rejected++;
    d->fill = 0;
    /* A bad block that ended on SYNC is already resynchronised. */
    d->discarding = byte != FRAME_SYNC;
}

uint8_t frame_decoder_push(frame_decoder_t *d, uint8_t byte, frame_t *out)
{
    if (d->discarding) {
        d->discarding = byte != FRAME_SYNC;
        return 0;
    }
    if (d->fill == 0 && (byte < FRAME_MIN || byte > FRAME_MAX)) {
        reject(d, byte);
        return 0;
    }
    d->buf[d->fill++] = byte;
    uint8_t length = d->buf[0];
    if (d->fill < length)
        return 0;
    uint8_t body = length - FRAME_TRAILER;
    uint16_t received = (uint16_t)((d->buf[body] << 8) | d->buf[body + 1]);
    if (byte != FRAME_SYNC || crc16(d->buf, body) != received) {
        reject(d, byte);
        return 0;
    }
    d->fill = 0;
    out->seq = d->buf[1];
    out->length = body - FRAME_HEADER;
    out->payload = d->buf + FRAME_HEADER;
    return 1;
}

uint8_t frame_encode(uint8_t *out, uint8_t seq, const uint8_t *payload, uint8_t length)
{
    uint8_t total = length + FRAME_MIN;
    out[0] = total;
    out[1] = seq;
    for (uint8_t i = 0; i < length; i++)
        out[FRAME_HEADER + i] = payload[i];
    uint16_t crc = crc16(out, FRAME_HEADER + length);
    out[FRAME_HEADER + length] = (uint8_t)(crc >> 8);
    out[FRAME_HEADER + length + 1] = (uint8_t)crc;
    out[total - 1] = FRAME_SYNC;
    return total;
}
