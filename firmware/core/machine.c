#include "machine.h"
#include "geometry.h"
#include "hal.h"

enum {
    PHASE_NONE,
    PHASE_FEED_REACH,  /* roller on, waiting for the card's leading edge at the throat */
    PHASE_FEED_PASS,   /* card passing the throat sensor; its length is being timed */
    PHASE_FEED_SETTLE, /* trailing edge past; waiting for the station sensor */
    PHASE_HOME,        /* carousel stepping towards its home flag */
    PHASE_TURN,        /* carousel stepping to the target pocket */
    PHASE_EXIT,        /* exit roller pushing the card off the station */
    PHASE_FALL,        /* card falling through the router, waiting for a break beam */
    PHASE_BEAM,        /* card passing the pocket's break beam */
};

static uint16_t elapsed(const machine_t *m, uint16_t now)
{
    return (uint16_t)(now - m->phase_since);
}

static void enter(machine_t *m, uint8_t phase, uint16_t now)
{
    m->phase = phase;
    m->phase_since = now;
}

static void stop_motors(machine_t *m)
{
    hal_feed_motor(0);
    hal_exit_motor(0);
    hal_stepper_enable(0);
    /* An unpowered carousel can be turned by hand: its position is no longer known. */
    m->carousel = CAROUSEL_UNKNOWN;
}

static uint8_t finish(machine_t *m, uint8_t msg, uint8_t a, uint8_t b)
{
    m->result.msg = msg;
    m->result.a = a;
    m->result.b = b;
    m->phase = PHASE_NONE;
    return 1;
}

static uint8_t done(machine_t *m, uint8_t arg1, uint8_t arg2)
{
    return finish(m, MSG_DONE, arg1, arg2);
}

/* A physical fault: everything stops and the operator must act, then `resume`. */
static uint8_t fail(machine_t *m, uint8_t code, uint8_t where)
{
    stop_motors(m);
    m->state = STATE_FAULT;
    return finish(m, MSG_FAULT, code, where);
}

/* A refused command: nothing moved, so the state stays as it was. */
static uint8_t refuse(machine_t *m, uint8_t code, uint8_t where)
{
    return finish(m, MSG_FAULT, code, where);
}

/* The fault code a stop input stands for, or 0 when neither is active. */
static uint8_t stop_cause(uint16_t inputs)
{
    if (inputs & IN_ESTOP)
        return FAULT_ESTOP;
    if (inputs & IN_DOOR_OPEN)
        return FAULT_DOOR_OPEN;
    return 0;
}

static int8_t first_beam(uint16_t inputs)
{
    for (uint8_t p = 0; p < POCKET_COUNT; p++)
        if (inputs & IN_BEAM(p))
            return (int8_t)p;
    return -1;
}

void machine_init(machine_t *m, uint16_t now)
{
    m->phase = PHASE_NONE;
    m->action = 0;
    m->carousel = CAROUSEL_UNKNOWN;
    m->events = 0;
    m->phase_since = now;
    for (uint8_t p = 0; p < POCKET_COUNT; p++)
        m->counts[p] = 0;
    stop_motors(m);
    m->inputs = hal_read_inputs();
    /* A card left at the station across a reset is still there: say so rather than feed onto it. */
    if (stop_cause(m->inputs))
        m->state = STATE_FAULT;
    else
        m->state = (m->inputs & IN_STATION) ? STATE_AT_STATION : STATE_IDLE;
}

uint8_t machine_busy(const machine_t *m)
{
    return m->phase != PHASE_NONE;
}

uint8_t machine_flags(const machine_t *m)
{
    uint8_t flags = 0;
    if (m->inputs & IN_STATION)
        flags |= FLAG_CARD_AT_STATION;
    if (m->inputs & IN_HOPPER_EMPTY)
        flags |= FLAG_HOPPER_EMPTY;
    if (m->inputs & IN_DOOR_OPEN)
        flags |= FLAG_DOOR_OPEN;
    if (m->inputs & IN_ESTOP)
        flags |= FLAG_ESTOP;
    return flags;
}

uint8_t machine_take_event(machine_t *m)
{
    for (uint8_t code = 1; code < 8; code++) {
        if (m->events & (1u << code)) {
            m->events &= (uint8_t)~(1u << code);
            return code;
        }
    }
    return 0;
}

static uint16_t sample(machine_t *m);

static uint8_t start_feed(machine_t *m, const uint8_t *args, uint16_t now)
{
    (void)args;
    if (m->state != STATE_IDLE)
        return refuse(m, FAULT_BAD_STATE, m->state);
    if (m->inputs & IN_HOPPER_EMPTY)
        return refuse(m, FAULT_HOPPER_EMPTY, 0);
    if (m->inputs & IN_PASS)
        return fail(m, FAULT_JAM, WHERE_READ_STATION);
    m->state = STATE_FEEDING;
    hal_feed_motor(1);
    enter(m, PHASE_FEED_REACH, now);
    return 0;
}

static void plan_turn(machine_t *m, uint16_t now)
{
    /* Shortest way round: a quarter turn either way, or a half turn forwards. */
    static const int8_t quarter_turns[POCKET_COUNT] = {0, 1, 2, -1};
    int8_t turns = quarter_turns[(uint8_t)(m->pocket - m->carousel) & 3];
    m->direction = turns < 0 ? -1 : 1;
    m->steps_left = (uint8_t)((turns < 0 ? -turns : turns) * STEPS_PER_POCKET);
    enter(m, PHASE_TURN, now);
}

static uint8_t start_route(machine_t *m, const uint8_t *args, uint16_t now)
{
    if (args[0] >= POCKET_COUNT)
        return refuse(m, FAULT_BAD_ARGUMENT, 0);
    if (m->state != STATE_AT_STATION || !(m->inputs & IN_STATION))
        return refuse(m, FAULT_BAD_STATE, m->state);
    int8_t blocked = first_beam(m->inputs);
    if (blocked >= 0)
        return fail(m, FAULT_JAM, (uint8_t)(WHERE_POCKET_CHUTE + blocked));
    m->pocket = args[0];
    m->state = STATE_ROUTING;
    hal_stepper_enable(1);
    if (m->carousel == CAROUSEL_UNKNOWN) {
        m->homing_steps = 0;
        enter(m, PHASE_HOME, now);
    } else {
        plan_turn(m, now);
    }
    return 0;
}

static uint8_t clear_counts(machine_t *m, const uint8_t *args, uint16_t now)
{
    (void)args;
    (void)now;
    for (uint8_t p = 0; p < POCKET_COUNT; p++)
        m->counts[p] = 0;
    return done(m, 0, 0);
}

static uint8_t resume(machine_t *m, const uint8_t *args, uint16_t now)
{
    (void)args;
    (void)now;
    if (m->state != STATE_FAULT)
        return done(m, 0, 0);
    uint8_t cause = stop_cause(m->inputs);
    if (cause)
        return refuse(m, cause, 0);
    if (m->inputs & IN_PASS)
        return refuse(m, FAULT_JAM, WHERE_READ_STATION);
    int8_t blocked = first_beam(m->inputs);
    if (blocked >= 0)
        return refuse(m, FAULT_JAM, (uint8_t)(WHERE_POCKET_CHUTE + blocked));
    m->state = (m->inputs & IN_STATION) ? STATE_AT_STATION : STATE_IDLE;
    return done(m, 0, 0);
}

/* The actions of PROTOCOL.md §3: how many argument bytes each takes, and whether it moves
 * anything (and so must not start with the door open or the e-stop pressed). */
static const struct {
    uint8_t id;
    uint8_t nargs;
    uint8_t moves;
    uint8_t (*start)(machine_t *m, const uint8_t *args, uint16_t now);
} ACTIONS[] = {
    {MSG_FEED, 0, 1, start_feed},
    {MSG_ROUTE, 1, 1, start_route},
    {MSG_CLEAR_COUNTS, 0, 0, clear_counts},
    {MSG_RESUME, 0, 0, resume},
};

uint8_t machine_start(machine_t *m, uint8_t action, const uint8_t *args, uint8_t nargs,
                      uint16_t now)
{
    m->action = action;
    sample(m);
    for (uint8_t i = 0; i < sizeof ACTIONS / sizeof *ACTIONS; i++) {
        if (ACTIONS[i].id != action)
            continue;
        uint8_t expected = ACTIONS[i].nargs;
        if (nargs != expected) /* where: the first missing or extra argument */
            return refuse(m, FAULT_BAD_ARGUMENT, nargs < expected ? nargs : expected);
        uint8_t cause = stop_cause(m->inputs);
        if (ACTIONS[i].moves && cause)
            return fail(m, cause, 0);
        return ACTIONS[i].start(m, args, now);
    }
    return refuse(m, FAULT_UNKNOWN_COMMAND, action);
}

static uint8_t tick_feed(machine_t *m, uint16_t now)
{
    uint16_t in = m->inputs;
    switch (m->phase) {
    case PHASE_FEED_REACH:
        if (in & IN_PASS)
            enter(m, PHASE_FEED_PASS, now);
        else if (elapsed(m, now) >= FEED_JAM_MS)
            return fail(m, FAULT_JAM, WHERE_FEED_PATH);
        return 0;
    case PHASE_FEED_PASS:
        if (!(in & IN_PASS)) {
            hal_feed_motor(0);
            enter(m, PHASE_FEED_SETTLE, now);
        } else if (elapsed(m, now) > DOUBLE_FEED_MS) {
            /* Longer than any one card: two stuck together. Stop with them at the station. */
            return fail(m, FAULT_DOUBLE_FEED, WHERE_READ_STATION);
        }
        return 0;
    default: /* PHASE_FEED_SETTLE */
        if (in & IN_STATION) {
            m->state = STATE_AT_STATION;
            return done(m, 0, 0);
        }
        if (elapsed(m, now) >= STATION_SETTLE_MS)
            return fail(m, FAULT_JAM, WHERE_READ_STATION);
        return 0;
    }
}

static uint8_t tick_route(machine_t *m, uint16_t now)
{
    uint16_t in = m->inputs;
    uint16_t beam = IN_BEAM(m->pocket);
    switch (m->phase) {
    case PHASE_HOME:
        if (in & IN_HOME) {
            m->carousel = 0;
            plan_turn(m, now);
        } else if (m->homing_steps++ >= HOMING_MAX_STEPS) {
            return fail(m, FAULT_JAM, WHERE_ROUTER);
        } else {
            hal_step(1);
        }
        return 0;
    case PHASE_TURN:
        if (m->steps_left) {
            hal_step(m->direction);
            m->steps_left--;
            return 0;
        }
        /* Lost steps show at home: never drop a card into a pocket we are not sure of. */
        if (m->pocket == 0 && !(in & IN_HOME))
            return fail(m, FAULT_JAM, WHERE_ROUTER);
        m->carousel = m->pocket;
        hal_exit_motor(1);
        enter(m, PHASE_EXIT, now);
        return 0;
    case PHASE_EXIT:
        if (!(in & IN_STATION)) {
            hal_exit_motor(0);
            enter(m, PHASE_FALL, now);
        } else if (elapsed(m, now) >= STATION_CLEAR_MS) {
            return fail(m, FAULT_JAM, WHERE_READ_STATION);
        }
        return 0;
    case PHASE_FALL: {
        int8_t seen = first_beam(in);
        if (seen == (int8_t)m->pocket) {
            enter(m, PHASE_BEAM, now);
        } else if (seen >= 0) {
            /* The card went into another pocket (sample() counted it there): stop. */
            return fail(m, FAULT_JAM, WHERE_ROUTER);
        } else if (elapsed(m, now) >= ROUTER_JAM_MS) {
            return fail(m, FAULT_JAM, WHERE_ROUTER);
        }
        return 0;
    }
    default: /* PHASE_BEAM */
        if (!(in & beam)) {
            hal_stepper_enable(0);
            m->state = STATE_IDLE;
            return done(m, m->pocket, m->counts[m->pocket]);
        }
        if (elapsed(m, now) >= CHUTE_JAM_MS)
            return fail(m, FAULT_JAM, (uint8_t)(WHERE_POCKET_CHUTE + m->pocket));
        return 0;
    }
}

static void note_stop_inputs(machine_t *m, uint16_t changed, uint16_t in)
{
    /* Unsolicited events, one bit per event code: the door and e-stop edges. */
    static const struct {
        uint16_t input;
        uint8_t on, off;
    } EDGES[] = {
        {IN_DOOR_OPEN, EVENT_DOOR_OPENED, EVENT_DOOR_CLOSED},
        {IN_ESTOP, EVENT_ESTOP_PRESSED, EVENT_ESTOP_RELEASED},
    };
    for (uint8_t i = 0; i < sizeof EDGES / sizeof *EDGES; i++)
        if (changed & EDGES[i].input)
            m->events |= (uint8_t)(1u << ((in & EDGES[i].input) ? EDGES[i].on : EDGES[i].off));
}

/* Read the sensors and note what changed. A pocket counts every card that breaks its beam,
 * in any state: a card still falling when the door opens is in the pocket all the same. */
static uint16_t sample(machine_t *m)
{
    uint16_t in = hal_read_inputs();
    uint16_t changed = in ^ m->inputs;
    note_stop_inputs(m, changed, in);
    for (uint8_t p = 0; p < POCKET_COUNT; p++)
        if (changed & in & IN_BEAM(p))
            m->counts[p]++;
    m->inputs = in;
    return in;
}

uint8_t machine_tick(machine_t *m, uint16_t now)
{
    uint16_t in = sample(m);

    uint8_t cause = stop_cause(in);
    if (cause && m->state != STATE_FAULT) {
        if (machine_busy(m))
            return fail(m, cause, 0);
        stop_motors(m);
        m->state = STATE_FAULT;
        return 0;
    }
    if (!machine_busy(m)) {
        /* Between actions the station sensor is the truth: a card lifted off or put back. */
        if (m->state == STATE_IDLE && (in & IN_STATION))
            m->state = STATE_AT_STATION;
        else if (m->state == STATE_AT_STATION && !(in & IN_STATION))
            m->state = STATE_IDLE;
        return 0;
    }
    return m->action == MSG_FEED ? tick_feed(m, now) : tick_route(m, now);
}
