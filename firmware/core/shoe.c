#include "shoe.h"
#include "version.h"
#include "geometry.h"
#include "hal.h"

static void send(const shoe_t *s, const uint8_t *payload, uint8_t length)
{
    uint8_t block[FRAME_MAX];
    hal_serial_write(block, frame_encode(block, s->expected, payload, length));
}

static void send_ack(const shoe_t *s)
{
    send(s, 0, 0);
}

static void send_result(const shoe_t *s)
{
    const uint8_t payload[] = {s->last.msg, s->last_seq, s->last_action, s->last.a, s->last.b};
    send(s, payload, sizeof payload);
}

static void send_event(const shoe_t *s, uint8_t code, uint8_t arg)
{
    const uint8_t payload[] = {MSG_EVENT, code, arg};
    send(s, payload, sizeof payload);
}

static void send_identity(const shoe_t *s)
{
    const uint8_t payload[] = {
        MSG_IDENTITY, FW_MAJOR, FW_MINOR, FW_PATCH, PROTOCOL_VERSION, POCKET_COUNT,
        HOPPER_CAPACITY_CARDS, PATH_WIDTH_MM, MAX_CARD_LENGTH_MM,
        (uint8_t)(s->boot_id >> 8), (uint8_t)s->boot_id,
        (uint8_t)(PROTOCOL_DICTIONARY_CRC >> 8), (uint8_t)PROTOCOL_DICTIONARY_CRC,
    };
    send(s, payload, sizeof payload);
}

static void send_status(const shoe_t *s)
{
    const machine_t *m = &s->machine;
    uint8_t failed = s->has_result && s->last.msg == MSG_FAULT;
    const uint8_t payload[] = {
        MSG_STATUS_REPLY, m->state, machine_flags(m),
        m->counts[0], m->counts[1], m->counts[2], m->counts[3],
        s->last_seq, failed ? s->last.a : RESULT_OK, failed ? s->last.b : 0,
        (uint8_t)(s->boot_id >> 8), (uint8_t)s->boot_id,
    };
    send(s, payload, sizeof payload);
}

static void remember_result(shoe_t *s)
{
    s->last = s->machine.result;
    s->last_seq = s->running_seq;
    s->last_action = s->machine.action;
    s->has_result = 1;
    send_result(s);
}

static void accept_action(shoe_t *s, const frame_t *f, uint16_t now)
{
    s->running_seq = f->seq;
    s->has_result = 0;
    s->expected = (uint8_t)(f->seq + 1);
    send_ack(s); /* the acknowledgement goes out before the (possibly slow) action */
    if (machine_start(&s->machine, f->payload[0], f->payload + 1, f->length - 1, now))
        remember_result(s);
}

static void on_action(shoe_t *s, const frame_t *f, uint16_t now)
{
    /* Until a host has identified it knows nothing of our sequence: after a reset, a
     * retransmission from before could otherwise land on the fresh sequence and act twice. */
    if (!s->identified) {
        send_ack(s);
        return;
    }
    if (f->seq == s->expected) {
        if (machine_busy(&s->machine))
            send_ack(s); /* stop-and-wait: not accepted until the running action ends */
        else
            accept_action(s, f, now);
        return;
    }
    if (f->seq == (uint8_t)(s->expected - 1) && s->has_result && s->last_seq == f->seq) {
        send_result(s); /* a retransmission of the last action: answer, never act again */
        return;
    }
    send_ack(s);
}

static void on_frame(shoe_t *s, const frame_t *f, uint16_t now)
{
    if (f->length == 0)
        return; /* the host has nothing to acknowledge to us */
    switch (f->payload[0]) {
    case MSG_IDENTIFY:
        s->identified = 1;
        send_identity(s);
        break;
    case MSG_STATUS:
        send_status(s);
        break;
    default:
        on_action(s, f, now);
    }
}

void shoe_init(shoe_t *s, uint16_t boot_id, uint8_t reset_cause, uint16_t now)
{
    frame_decoder_init(&s->decoder);
    machine_init(&s->machine, now);
    s->expected = 0;
    s->identified = 0;
    s->has_result = 0;
    s->last_seq = 0xFF;
    s->last_action = 0;
    s->boot_id = boot_id;
    s->last_byte_ms = now;
    send_event(s, EVENT_RESET, reset_cause);
}

void shoe_receive(shoe_t *s, uint8_t byte, uint16_t now)
{
    if ((uint16_t)(now - s->last_byte_ms) > FRAME_GAP_MS)
        frame_decoder_abandon(&s->decoder);
    s->last_byte_ms = now;
    frame_t f;
    if (frame_decoder_push(&s->decoder, byte, &f))
        on_frame(s, &f, now);
}

void shoe_tick(shoe_t *s, uint16_t now)
{
    if (machine_tick(&s->machine, now))
        remember_result(s);
    for (uint8_t code = machine_take_event(&s->machine); code;
         code = machine_take_event(&s->machine))
        send_event(s, code, 0);
}
