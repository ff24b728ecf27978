#include "vmachine.h"

#include <string.h>

#include "../core/geometry.h"
#include "../core/hal.h"

/* Roller-time positions along the path, at the feed speed of core/geometry.h. */
#define REACH_US 40000ULL                      /* hopper -> leading edge at the throat sensor */
#define PASS_US (CARD_PASS_MS * 1000ULL)       /* one card's length through the throat */
#define PAIR_PASS_US (PASS_US * 17 / 10)       /* two cards stuck together, 60 % offset */
#define STATION_COVER_US (REACH_US + 120000ULL) /* leading edge over the station sensor */
#define EXIT_CLEAR_US 100000ULL                /* exit roller: card off the station */
#define FALL_US 60000ULL                       /* router drop to the break beam */
#define BEAM_US 30000ULL                       /* card passing through the beam */

void vm_init(vmachine_t *vm)
{
    memset(vm, 0, sizeof *vm);
    vm->jam_pocket = -1;
    /* Start away from home so that every boot exercises homing. */
    vm->step_position = STEPS_PER_REV / 2 + 37;
}

void vm_load(vmachine_t *vm, const vcard_t *cards, int count)
{
    uint64_t now = vm->now_us;
    int position = vm->step_position;
    vm_init(vm);
    vm->now_us = now;
    vm->step_position = position;
    memcpy(vm->hopper, cards, (size_t)count * sizeof *cards);
    vm->hopper_end = count;
}

static uint64_t feeding_length(const vmachine_t *vm)
{
    return vm->feeding.count > 1 ? PAIR_PASS_US : PASS_US;
}

static void take_from_hopper(vmachine_t *vm)
{
    int wanted = vm->double_feed_armed ? 2 : 1;
    vm->double_feed_armed = 0;
    vm->feeding.count = 0;
    vm->feeding.progress_us = 0;
    while (vm->feeding.count < wanted && vm->hopper_top < vm->hopper_end)
        vm->feeding.cards[vm->feeding.count++] = vm->hopper[vm->hopper_top++];
}

static void arrive_at_station(vmachine_t *vm, vm_object_t *object)
{
    for (int i = 0; i < object->count && vm->station_count < 2; i++)
        vm->station[vm->station_count++] = object->cards[i];
    object->count = 0;
}

static void land_in_pocket(vmachine_t *vm)
{
    int p = vm->fall_pocket;
    for (int i = 0; i < vm->routing.count; i++)
        vm->pockets[p][vm->pocket_count[p]++] = vm->routing.cards[i];
    vm->routing.count = 0;
    vm->route = VM_ROUTE_NONE;
}

static void feed(vmachine_t *vm, uint64_t dt)
{
    /* A jammed feed slips on the top card; nothing moves. */
    if (!vm->feed_on || vm->jam_feed)
        return;
    if (vm->feeding.count == 0 && vm->hopper_top < vm->hopper_end)
        take_from_hopper(vm);
    if (vm->feeding.count == 0)
        return;
    vm->feeding.progress_us += dt;
    if (vm->feeding.progress_us >= REACH_US + feeding_length(vm))
        arrive_at_station(vm, &vm->feeding);
}

static int carousel_pocket(const vmachine_t *vm)
{
    if (vm->step_position % STEPS_PER_POCKET)
        return -1; /* between two chutes: the card hits the divider */
    return vm->step_position / STEPS_PER_POCKET;
}

static void eject(vmachine_t *vm, uint64_t dt)
{
    if (!vm->exit_on || vm->station_count == 0 || vm->route != VM_ROUTE_NONE)
        return;
    vm->exit_us += dt;
    if (vm->exit_us < EXIT_CLEAR_US)
        return;
    vm->exit_us = 0;
    memcpy(vm->routing.cards, vm->station, sizeof vm->station);
    vm->routing.count = vm->station_count;
    vm->routing.progress_us = 0;
    vm->station_count = 0;
    vm->fall_pocket = carousel_pocket(vm);
    vm->route = (vm->jam_router || vm->fall_pocket < 0) ? VM_STUCK_ROUTER : VM_FALLING;
}

static void fall(vmachine_t *vm, uint64_t dt)
{
    if (vm->route != VM_FALLING)
        return;
    vm->routing.progress_us += dt;
    if (vm->jam_pocket == vm->fall_pocket && vm->routing.progress_us >= FALL_US)
        vm->route = VM_STUCK_CHUTE;
    else if (vm->routing.progress_us >= FALL_US + BEAM_US)
        land_in_pocket(vm);
}

void vm_advance(vmachine_t *vm, uint64_t now_us)
{
    if (now_us <= vm->now_us)
        return;
    uint64_t dt = now_us - vm->now_us;
    vm->now_us = now_us;
    fall(vm, dt);
    eject(vm, dt);
    feed(vm, dt);
}

uint16_t vm_sensors(const vmachine_t *vm)
{
    uint16_t in = 0;
    uint64_t fed = vm->feeding.progress_us;
    if (vm->feeding.count && fed >= REACH_US && fed < REACH_US + feeding_length(vm))
        in |= IN_PASS;
    if (vm->station_count || (vm->feeding.count && fed >= STATION_COVER_US))
        in |= IN_STATION;
    /* A card nudged by the roller but not yet at the throat still lies over the sensor. */
    if (vm->hopper_top >= vm->hopper_end && !(vm->feeding.count && fed < REACH_US))
        in |= IN_HOPPER_EMPTY;
    if (vm->step_position == 0)
        in |= IN_HOME;
    if (vm->door_open)
        in |= IN_DOOR_OPEN;
    if (vm->estop)
        in |= IN_ESTOP;
    if ((vm->route == VM_FALLING && vm->routing.progress_us >= FALL_US)
        || vm->route == VM_STUCK_CHUTE)
        in |= IN_BEAM(vm->fall_pocket);
    return in;
}

void vm_step(vmachine_t *vm, int direction)
{
    if (!vm->stepper_on)
        return;
    vm->step_position = (vm->step_position + (direction > 0 ? 1 : STEPS_PER_REV - 1))
                        % STEPS_PER_REV;
}

void vm_power_loss(vmachine_t *vm)
{
    vm->feed_on = 0;
    vm->exit_on = 0;
    vm->stepper_on = 0;
}

void vm_empty_hopper(vmachine_t *vm)
{
    vm->hopper_end = vm->hopper_top;
}

static void clear_feed_jam(vmachine_t *vm)
{
    /* The operator pulls stuck cards apart: the first onto the station, a second one back
     * on top of the hopper; a card that never reached the throat goes back to the hopper. */
    if (vm->feeding.count == 0 || vm->feed_on)
        return;
    if (vm->feeding.progress_us < REACH_US) {
        vm->hopper_top -= vm->feeding.count;
        vm->feeding.count = 0;
        return;
    }
    vm->hopper_top -= vm->feeding.count - 1;
    vm->feeding.count = 1;
    arrive_at_station(vm, &vm->feeding);
}

void vm_clear_jam(vmachine_t *vm)
{
    vm->jam_feed = 0;
    vm->jam_router = 0;
    vm->jam_pocket = -1;
    clear_feed_jam(vm);
    if (vm->route == VM_STUCK_ROUTER) {
        arrive_at_station(vm, &vm->routing); /* put back on the read station, to route again */
        vm->route = VM_ROUTE_NONE;
    } else if (vm->route == VM_STUCK_CHUTE) {
        land_in_pocket(vm); /* pushed down into the pocket it was already entering */
    }
}

const vcard_t *vm_station_card(const vmachine_t *vm)
{
    if (vm->station_count)
        return &vm->station[0];
    if (vm->feeding.count && vm->feeding.progress_us >= STATION_COVER_US)
        return &vm->feeding.cards[0];
    return 0;
}
