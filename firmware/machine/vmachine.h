/* The simulated shoe mechanics: a virtual deck in the hopper, a feed roller, a read station,
 * a carousel router, four pockets with break beams, a door, an e-stop and injected faults.
 * It knows where every card physically is: that is the ground truth the tests compare with.
 * Both simulated targets drive it: the simavr harness from the AVR's pins, the host-native
 * executable from its HAL. Sensor outputs use the core's logical IN_* bits (core/hal.h). */
#ifndef VMACHINE_H
#define VMACHINE_H

#include <stdint.h>
#include "vdeck.h"

#define VM_POCKETS 4

/* Where the card(s) between the hopper and a pocket are. Feeding and routing are separate
 * paths: the feed roller may nudge the next card while the last one drops to its pocket. */
enum vm_route {
    VM_ROUTE_NONE,
    VM_FALLING,      /* dropping down the router to a pocket */
    VM_STUCK_ROUTER, /* injected router jam: the card stopped in the router */
    VM_STUCK_CHUTE,  /* injected chute jam: the card sits in the pocket's break beam */
};

typedef struct {
    vcard_t cards[2]; /* one card, or two stuck together */
    int count;
    uint64_t progress_us; /* how far it has gone along its path */
} vm_object_t;

typedef struct {
    vcard_t hopper[VDECK_MAX_CARDS];
    int hopper_top, hopper_end;       /* cards hopper[top..end) are still in the hopper */
    vm_object_t feeding;              /* left the hopper, not yet resting on the station */
    vcard_t station[2];
    int station_count;
    vm_object_t routing;              /* left the station, not yet in a pocket */
    enum vm_route route;
    int fall_pocket;
    uint64_t exit_us;                 /* exit roller time spent pushing the station's card */
    vcard_t pockets[VM_POCKETS][VDECK_MAX_CARDS];
    int pocket_count[VM_POCKETS];

    uint8_t feed_on, exit_on, stepper_on;
    int step_position;                /* 0..STEPS_PER_REV-1; 0 is pocket N, the home flag */

    uint8_t jam_feed, jam_router, double_feed_armed, door_open, estop;
    int jam_pocket;                   /* -1: none armed */
    uint64_t now_us;
} vmachine_t;

void vm_init(vmachine_t *vm);
void vm_load(vmachine_t *vm, const vcard_t *cards, int count);
void vm_advance(vmachine_t *vm, uint64_t now_us);
uint16_t vm_sensors(const vmachine_t *vm);
void vm_step(vmachine_t *vm, int direction);
void vm_power_loss(vmachine_t *vm); /* an MCU reset: outputs float, the drivers stop */

/* Injected faults and the operator's hands. */
void vm_empty_hopper(vmachine_t *vm);
void vm_clear_jam(vmachine_t *vm);

/* The card the camera sees at the read station, or 0. */
const vcard_t *vm_station_card(const vmachine_t *vm);

#endif
