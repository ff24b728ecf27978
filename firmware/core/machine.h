/* The shoe's mechanics as a state machine: feed, route, clear counts, resume; jam and
 * double-feed detection; door and emergency stop. Knows nothing of bytes or sequence numbers. */
#ifndef SHOE_MACHINE_H
#define SHOE_MACHINE_H

#include <stdint.h>
#include "protocol.h"

#define CAROUSEL_UNKNOWN 0xFF

typedef struct {
    uint8_t msg; /* MSG_DONE or MSG_FAULT */
    uint8_t a;   /* done: arg1; fault: code */
    uint8_t b;   /* done: arg2; fault: where */
} result_t;

typedef struct {
    uint8_t state;    /* enum shoe_state */
    uint8_t phase;    /* step inside the running action; PHASE_NONE when none runs */
    uint8_t action;   /* message id of the running action */
    uint8_t pocket;   /* route target */
    uint8_t carousel; /* pocket under the router's chute, CAROUSEL_UNKNOWN until homed */
    uint8_t steps_left;
    int8_t direction;
    uint16_t homing_steps;
    uint16_t phase_since; /* ms */
    uint16_t inputs;      /* last sampled sensor bits (hal.h IN_*) */
    uint8_t counts[POCKET_COUNT]; /* beam breaks since boot or clear_counts */
    uint8_t events;       /* pending unsolicited events: bit (code) set */
    result_t result;      /* of the action that just ended */
} machine_t;

void machine_init(machine_t *m, uint16_t now);

/* Start an action. Returns 1 if it ended at once (m->result holds the answer). */
uint8_t machine_start(machine_t *m, uint8_t action, const uint8_t *args, uint8_t nargs,
                      uint16_t now);

/* Advance the running action and watch the door and e-stop; call every millisecond.
 * Returns 1 when the running action ended this tick (m->result holds the answer). */
uint8_t machine_tick(machine_t *m, uint16_t now);

uint8_t machine_busy(const machine_t *m);
uint8_t machine_flags(const machine_t *m);

/* Next pending unsolicited event code, or 0 when none is left. */
uint8_t machine_take_event(machine_t *m);

#endif
