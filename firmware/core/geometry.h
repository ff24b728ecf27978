/* The machine's geometry and timing: what the firmware expects of the mechanics.
 * The simulated machines (firmware/machine/) build their physics from the same numbers,
 * so a change here moves firmware and simulators together. See hardware/MECHANICAL.md. */
#ifndef SHOE_GEOMETRY_H
#define SHOE_GEOMETRY_H

#include "protocol.h"

#define HOPPER_CAPACITY_CARDS 60
#define PATH_WIDTH_MM 66        /* poker cards are 63 mm wide; 1.5 mm clearance a side */
#define MAX_CARD_LENGTH_MM 89

#define FEED_SPEED_MM_PER_S 500 /* feed roller surface speed */
#define CARD_PASS_MS ((MAX_CARD_LENGTH_MM * 1000UL) / FEED_SPEED_MM_PER_S) /* 178 ms */
#define DOUBLE_FEED_MS (CARD_PASS_MS * 3 / 2) /* PROTOCOL.md §5: 1.5 x the pass time */

#define FEED_JAM_MS 500      /* presence sensor not reached after the roller starts */
#define STATION_SETTLE_MS 100 /* trailing edge past the pass sensor -> resting on the station */
#define STATION_CLEAR_MS 300 /* exit roller on -> the station sensor clears */
#define ROUTER_JAM_MS 500    /* card left the station -> the pocket's break beam */
#define CHUTE_JAM_MS 500     /* a break beam that stays broken longer: the chute is blocked */

#define STEPS_PER_REV 200    /* NEMA17, full steps */
#define STEPS_PER_POCKET (STEPS_PER_REV / POCKET_COUNT)
#define STEP_PERIOD_MS 1     /* one full step per tick: a quarter turn in 50 ms */
#define HOMING_MAX_STEPS (STEPS_PER_REV + STEPS_PER_POCKET)

#endif
