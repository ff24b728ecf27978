/* Unit tests of the firmware core, on the host: framing, the sequence rules of PROTOCOL.md §2,
 * and the machine's actions and faults on the virtual machine. `make -C firmware test`. */
#include <string.h>

#include "../core/crc16.h"
#include "../core/frame.h"
#include "../core/geometry.h"
#include "../core/hal.h"
#include "check.h"
#include "test_board.h"

int check_failures;
const char *check_test;

enum { N, E, S, W };
#define ACTION_MS 1200 /* longer than any action's own timeouts */

static const uint8_t FEED[] = {MSG_FEED};
static const uint8_t CLEAR[] = {MSG_CLEAR_COUNTS};
static const uint8_t RESUME[] = {MSG_RESUME};

/* Send one action, let it run, and return its result block (payload[0] 0 if none came). */
static block_t act(uint8_t seq, const uint8_t *payload, uint8_t length)
{
    block_t result = {0};
    board_forget_output();
    board_send(seq, payload, length);
    board_run_ms(ACTION_MS);
    board_last_result(&result);
    return result;
}

static block_t route(uint8_t seq, uint8_t pocket)
{
    const uint8_t payload[] = {MSG_ROUTE, pocket};
    return act(seq, payload, sizeof payload);
}

static void ready(int cards)
{
    board_power_up(cards);
    board_run_ms(5);
    board_identify();
}

static int cards_out_of_hopper(void)
{
    return test_vm.hopper_top;
}

/* ---- framing ---- */

static void test_crc16_ccitt_false_check_value(void)
{
    CHECK_EQ(crc16((const uint8_t *)"123456789", 9), 0x29B1);
}

static void test_frame_round_trip(void)
{
    uint8_t block[FRAME_MAX];
    const uint8_t payload[] = {MSG_ROUTE, 2};
    uint8_t length = frame_encode(block, 200, payload, sizeof payload);
    CHECK_EQ(length, 7);
    CHECK_EQ(block[0], 7);
    CHECK_EQ(block[6], FRAME_SYNC);
    frame_decoder_t d;
    frame_decoder_init(&d);
    frame_t f;
    int got = 0;
    for (uint8_t i = 0; i < length; i++)
        got += frame_decoder_push(&d, block[i], &f);
    CHECK_EQ(got, 1);
    CHECK_EQ(f.seq, 200);
    CHECK_EQ(f.length, 2);
    CHECK_EQ(f.payload[1], 2);
}

static void test_frame_with_bad_crc_is_dropped_and_the_next_block_is_read(void)
{
    uint8_t stream[2 * FRAME_MAX];
    const uint8_t payload[] = {MSG_FEED};
    uint8_t first = frame_encode(stream, 1, payload, 1);
    stream[2] ^= 0x40; /* corrupt the payload */
    uint8_t total = first + frame_encode(stream + first, 2, payload, 1);
    frame_decoder_t d;
    frame_decoder_init(&d);
    frame_t f;
    int got = 0;
    uint8_t seq = 0;
    for (uint8_t i = 0; i < total; i++)
        if (frame_decoder_push(&d, stream[i], &f)) {
            got++;
            seq = f.seq;
        }
    CHECK_EQ(got, 1);
    CHECK_EQ(seq, 2);
    CHECK_EQ(d.rejected, 1);
}

static void test_frame_length_out_of_range_resyncs_at_the_next_sync(void)
{
    uint8_t stream[FRAME_MAX + 8] = {0xFF, 0x33, 0x44, FRAME_SYNC};
    const uint8_t payload[] = {MSG_STATUS};
    uint8_t total = 4 + frame_encode(stream + 4, 9, payload, 1);
    frame_decoder_t d;
    frame_decoder_init(&d);
    frame_t f;
    int got = 0;
    for (uint8_t i = 0; i < total; i++)
        got += frame_decoder_push(&d, stream[i], &f);
    CHECK_EQ(got, 1);
    CHECK_EQ(f.seq, 9);
}

static void test_partial_block_is_abandoned_after_a_silent_gap(void)
{
    ready(4);
    uint8_t block[FRAME_MAX];
    const uint8_t payload[] = {MSG_STATUS};
    uint8_t length = frame_encode(block, 0, payload, 1);
    board_send_bytes(block, 3); /* the link drops mid-block */
    board_run_ms(FRAME_GAP_MS + 5);
    board_forget_output();
    board_send_bytes(block, length);
    block_t answer;
    CHECK(board_next_block(&answer));
    CHECK_EQ(answer.payload[0], MSG_STATUS_REPLY);
}

static void test_block_after_a_pause_is_read_even_when_the_last_one_lost_its_sync(void)
{
    ready(4);
    uint8_t block[FRAME_MAX];
    const uint8_t payload[] = {MSG_STATUS};
    uint8_t length = frame_encode(block, 0, payload, 1);
    block[length - 1] = 0x55; /* the SYNC byte corrupted */
    board_send_bytes(block, length);
    board_run_ms(FRAME_GAP_MS + 30); /* the host's retransmit timeout */
    block[length - 1] = FRAME_SYNC;
    board_forget_output();
    board_send_bytes(block, length);
    block_t answer;
    CHECK(board_next_block(&answer));
    CHECK_EQ(answer.payload[0], MSG_STATUS_REPLY);
}

/* ---- handshake and sequence rules ---- */

static void test_boot_sends_the_reset_event_with_the_reset_cause(void)
{
    board_power_up(4);
    block_t b;
    CHECK(board_next_block(&b));
    CHECK_EQ(b.payload[0], MSG_EVENT);
    CHECK_EQ(b.payload[1], EVENT_RESET);
    CHECK_EQ(b.payload[2], 0x01);
}

static void test_identify_reports_versions_geometry_boot_id_and_dictionary_crc(void)
{
    board_power_up(4);
    block_t b = board_query(MSG_IDENTIFY);
    CHECK_EQ(b.length, 13);
    CHECK_EQ(b.payload[0], MSG_IDENTITY);
    CHECK_EQ(b.payload[4], PROTOCOL_VERSION);
    CHECK_EQ(b.payload[5], 4);
    CHECK_EQ(b.payload[6], HOPPER_CAPACITY_CARDS);
    CHECK_EQ(b.payload[7], PATH_WIDTH_MM);
    CHECK_EQ(b.payload[8], MAX_CARD_LENGTH_MM);
    CHECK_EQ((b.payload[9] << 8) | b.payload[10], 7);
    CHECK_EQ((b.payload[11] << 8) | b.payload[12], PROTOCOL_DICTIONARY_CRC);
    CHECK_EQ(b.seq, 0);
}

static void test_queries_do_not_advance_the_sequence(void)
{
    ready(4);
    board_query(MSG_STATUS);
    block_t b = board_query(MSG_STATUS);
    CHECK_EQ(b.seq, 0);
    CHECK_EQ(act(0, FEED, 1).payload[0], MSG_DONE);
}

static void test_no_action_is_carried_out_before_identify(void)
{
    board_power_up(4);
    board_forget_output();
    board_send(0, FEED, 1);
    board_run_ms(ACTION_MS);
    block_t b;
    CHECK(board_next_block(&b));
    CHECK_EQ(b.length, 0); /* a pure acknowledgement, still expecting 0 */
    CHECK_EQ(b.seq, 0);
    CHECK_EQ(cards_out_of_hopper(), 0);
}

static void test_action_is_acknowledged_before_its_result(void)
{
    ready(4);
    board_forget_output();
    board_send(0, FEED, 1);
    block_t b;
    CHECK(board_next_block(&b));
    CHECK_EQ(b.length, 0);
    CHECK_EQ(b.seq, 1);
    board_run_ms(ACTION_MS);
    CHECK(board_next_block(&b));
    CHECK_EQ(b.payload[0], MSG_DONE);
    CHECK_EQ(b.payload[1], 0); /* names the action's SEQ */
    CHECK_EQ(b.payload[2], MSG_FEED);
}

static void test_retransmitted_feed_after_its_result_is_answered_from_cache_not_fed_again(void)
{
    ready(4);
    act(0, FEED, 1);
    block_t again = act(0, FEED, 1);
    CHECK_EQ(again.payload[0], MSG_DONE);
    CHECK_EQ(again.payload[1], 0);
    CHECK_EQ(cards_out_of_hopper(), 1);
}

static void test_retransmitted_feed_while_running_gets_a_pure_ack_and_is_not_fed_again(void)
{
    ready(4);
    board_send(0, FEED, 1);
    board_run_ms(50);
    board_forget_output();
    board_send(0, FEED, 1);
    block_t b;
    CHECK(board_next_block(&b));
    CHECK_EQ(b.length, 0);
    CHECK_EQ(b.seq, 1);
    board_run_ms(ACTION_MS);
    CHECK_EQ(cards_out_of_hopper(), 1);
    CHECK_EQ(test_vm.station_count, 1);
}

static void test_retransmitted_route_never_drops_a_card_twice(void)
{
    ready(4);
    act(0, FEED, 1);
    route(1, E);
    act(2, FEED, 1);
    block_t again = route(1, E); /* stale: SEQ two behind */
    CHECK_EQ(again.payload[0], 0);
    CHECK_EQ(test_vm.pocket_count[E], 1);
    CHECK_EQ(test_vm.station_count, 1);
}

static void test_out_of_order_block_is_dropped_with_an_ack_naming_the_expected_seq(void)
{
    ready(4);
    board_forget_output();
    board_send(5, FEED, 1);
    board_run_ms(ACTION_MS);
    block_t b;
    CHECK(board_next_block(&b));
    CHECK_EQ(b.length, 0);
    CHECK_EQ(b.seq, 0);
    CHECK(!board_next_block(&b));
    CHECK_EQ(cards_out_of_hopper(), 0);
}

static void test_new_action_while_one_runs_is_not_accepted(void)
{
    ready(4);
    act(0, FEED, 1);
    const uint8_t to_north[] = {MSG_ROUTE, N};
    board_send(1, to_north, 2);
    board_run_ms(5);
    board_forget_output();
    board_send(2, CLEAR, 1);
    block_t b;
    CHECK(board_next_block(&b));
    CHECK_EQ(b.length, 0);
    CHECK_EQ(b.seq, 2); /* still expecting 2: not accepted */
    board_run_ms(ACTION_MS);
    CHECK_EQ(act(2, CLEAR, 1).payload[0], MSG_DONE);
}

static void test_sequence_wraps_from_255_to_0(void)
{
    ready(8);
    test_shoe.expected = 255;
    CHECK_EQ(act(255, FEED, 1).payload[0], MSG_DONE);
    CHECK_EQ(route(0, S).payload[0], MSG_DONE);
    CHECK_EQ(test_shoe.expected, 1);
}

/* ---- the machine ---- */

static void test_feed_leaves_one_card_at_the_station(void)
{
    ready(4);
    block_t r = act(0, FEED, 1);
    CHECK_EQ(r.payload[0], MSG_DONE);
    CHECK_EQ(test_vm.station_count, 1);
    CHECK(strcmp(test_vm.station[0].text, "AS") == 0);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[1], STATE_AT_STATION);
    CHECK(s.payload[2] & FLAG_CARD_AT_STATION);
}

static void test_route_delivers_to_the_named_pocket_and_reports_its_count(void)
{
    ready(8);
    static const uint8_t order[] = {W, E, N, S, S, W, N, E};
    for (uint8_t i = 0; i < 8; i++) {
        act((uint8_t)(2 * i), FEED, 1);
        block_t r = route((uint8_t)(2 * i + 1), order[i]);
        CHECK_EQ(r.payload[0], MSG_DONE);
        CHECK_EQ(r.payload[3], order[i]);
        CHECK_EQ(r.payload[4], test_vm.pocket_count[order[i]]);
    }
    for (int p = 0; p < 4; p++)
        CHECK_EQ(test_vm.pocket_count[p], 2);
    CHECK(strcmp(test_vm.pockets[W][0].text, "AS") == 0);
    CHECK(strcmp(test_vm.pockets[E][1].text, "7S") == 0);
}

static void test_route_without_a_card_is_refused_as_bad_state(void)
{
    ready(4);
    block_t r = route(0, N);
    CHECK_EQ(r.payload[0], MSG_FAULT);
    CHECK_EQ(r.payload[3], FAULT_BAD_STATE);
    CHECK_EQ(r.payload[4], STATE_IDLE);
}

static void test_route_to_pocket_4_is_a_bad_argument(void)
{
    ready(4);
    act(0, FEED, 1);
    block_t r = route(1, 4);
    CHECK_EQ(r.payload[3], FAULT_BAD_ARGUMENT);
    CHECK_EQ(r.payload[4], 0);
    CHECK_EQ(test_vm.station_count, 1);
}

static void test_wrong_argument_count_names_the_first_missing_or_extra_argument(void)
{
    ready(4);
    const uint8_t feed_with_extra[] = {MSG_FEED, 1};
    const uint8_t route_without_pocket[] = {MSG_ROUTE};
    const uint8_t route_with_extra[] = {MSG_ROUTE, 1, 2};
    block_t r = act(0, feed_with_extra, sizeof feed_with_extra);
    CHECK_EQ(r.payload[3], FAULT_BAD_ARGUMENT);
    CHECK_EQ(r.payload[4], 0);
    CHECK_EQ(cards_out_of_hopper(), 0);
    CHECK_EQ(act(1, FEED, 1).payload[0], MSG_DONE);
    r = act(2, route_without_pocket, sizeof route_without_pocket);
    CHECK_EQ(r.payload[3], FAULT_BAD_ARGUMENT);
    CHECK_EQ(r.payload[4], 0);
    r = act(3, route_with_extra, sizeof route_with_extra);
    CHECK_EQ(r.payload[3], FAULT_BAD_ARGUMENT);
    CHECK_EQ(r.payload[4], 1);
    CHECK_EQ(test_vm.station_count, 1);
}

static void test_unknown_command_names_the_message_id(void)
{
    ready(4);
    const uint8_t odd[] = {0x3C};
    block_t r = act(0, odd, 1);
    CHECK_EQ(r.payload[3], FAULT_UNKNOWN_COMMAND);
    CHECK_EQ(r.payload[4], 0x3C);
}

static void test_clear_counts_zeroes_every_pocket(void)
{
    ready(4);
    act(0, FEED, 1);
    route(1, S);
    CHECK_EQ(act(2, CLEAR, 1).payload[0], MSG_DONE);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[5], 0);
}

static void test_feed_with_an_empty_hopper_is_refused_and_stays_idle(void)
{
    ready(0);
    block_t r = act(0, FEED, 1);
    CHECK_EQ(r.payload[3], FAULT_HOPPER_EMPTY);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[1], STATE_IDLE);
    CHECK(s.payload[2] & FLAG_HOPPER_EMPTY);
    CHECK_EQ(s.payload[8], FAULT_HOPPER_EMPTY); /* last_result */
}

static void test_feed_jam_faults_at_the_feed_path_and_resume_recovers(void)
{
    ready(4);
    test_vm.jam_feed = 1;
    block_t r = act(0, FEED, 1);
    CHECK_EQ(r.payload[3], FAULT_JAM);
    CHECK_EQ(r.payload[4], WHERE_FEED_PATH);
    CHECK_EQ(board_query(MSG_STATUS).payload[1], STATE_FAULT);
    vm_clear_jam(&test_vm);
    CHECK_EQ(act(1, RESUME, 1).payload[0], MSG_DONE);
    CHECK_EQ(act(2, FEED, 1).payload[0], MSG_DONE);
    CHECK(strcmp(test_vm.station[0].text, "AS") == 0);
}

static void test_double_feed_faults_and_leaves_both_cards_at_the_station(void)
{
    ready(4);
    test_vm.double_feed_armed = 1;
    block_t r = act(0, FEED, 1);
    CHECK_EQ(r.payload[3], FAULT_DOUBLE_FEED);
    CHECK_EQ(r.payload[4], WHERE_READ_STATION);
    CHECK_EQ(test_vm.feeding.count, 2);
    CHECK(!test_vm.feed_on);
    /* still stuck: resume refuses */
    CHECK_EQ(act(1, RESUME, 1).payload[3], FAULT_JAM);
    vm_clear_jam(&test_vm);
    CHECK_EQ(act(2, RESUME, 1).payload[0], MSG_DONE);
    CHECK_EQ(board_query(MSG_STATUS).payload[1], STATE_AT_STATION);
    CHECK(strcmp(test_vm.station[0].text, "AS") == 0);
    CHECK(strcmp(test_vm.hopper[test_vm.hopper_top].text, "KS") == 0);
}

static void test_single_card_is_never_taken_for_a_double_feed(void)
{
    ready(52);
    for (uint8_t i = 0; i < 52; i++) {
        CHECK_EQ(act((uint8_t)(2 * i), FEED, 1).payload[0], MSG_DONE);
        CHECK_EQ(route((uint8_t)(2 * i + 1), i % 4).payload[0], MSG_DONE);
    }
    CHECK_EQ(test_vm.pocket_count[0] + test_vm.pocket_count[1] + test_vm.pocket_count[2]
                 + test_vm.pocket_count[3], 52);
}

static void test_router_jam_faults_at_the_router(void)
{
    ready(4);
    act(0, FEED, 1);
    test_vm.jam_router = 1;
    block_t r = route(1, E);
    CHECK_EQ(r.payload[3], FAULT_JAM);
    CHECK_EQ(r.payload[4], WHERE_ROUTER);
    vm_clear_jam(&test_vm); /* the card goes back on the station */
    CHECK_EQ(act(2, RESUME, 1).payload[0], MSG_DONE);
    CHECK_EQ(route(3, E).payload[0], MSG_DONE);
    CHECK_EQ(test_vm.pocket_count[E], 1);
}

static void test_chute_jam_faults_at_that_pocket_and_counts_the_card(void)
{
    ready(4);
    act(0, FEED, 1);
    test_vm.jam_pocket = S;
    block_t r = route(1, S);
    CHECK_EQ(r.payload[3], FAULT_JAM);
    CHECK_EQ(r.payload[4], WHERE_POCKET_CHUTE + S);
    CHECK_EQ(board_query(MSG_STATUS).payload[5], 1);
    CHECK_EQ(act(2, RESUME, 1).payload[4], WHERE_POCKET_CHUTE + S); /* beam still broken */
    vm_clear_jam(&test_vm);
    CHECK_EQ(act(3, RESUME, 1).payload[0], MSG_DONE);
    CHECK_EQ(test_vm.pocket_count[S], 1);
}

static void test_door_opening_mid_feed_stops_the_roller_and_faults(void)
{
    ready(4);
    board_send(0, FEED, 1);
    board_run_ms(30);
    board_forget_output();
    test_vm.door_open = 1;
    board_run_ms(2);
    CHECK(!test_vm.feed_on);
    block_t b, result = {0};
    int opened = 0;
    while (board_next_block(&b)) {
        if (b.payload[0] == MSG_EVENT && b.payload[1] == EVENT_DOOR_OPENED)
            opened = 1;
        if (b.payload[0] == MSG_FAULT)
            result = b;
    }
    CHECK(opened);
    CHECK_EQ(result.payload[3], FAULT_DOOR_OPEN);
    CHECK_EQ(act(1, RESUME, 1).payload[3], FAULT_DOOR_OPEN);
    test_vm.door_open = 0;
    CHECK_EQ(act(2, RESUME, 1).payload[0], MSG_DONE);
}

static void test_estop_while_idle_puts_the_shoe_in_fault_until_resumed(void)
{
    ready(4);
    test_vm.estop = 1;
    board_run_ms(2);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[1], STATE_FAULT);
    CHECK(s.payload[2] & FLAG_ESTOP);
    CHECK_EQ(act(0, FEED, 1).payload[3], FAULT_ESTOP);
    test_vm.estop = 0;
    board_run_ms(2);
    CHECK_EQ(act(1, RESUME, 1).payload[0], MSG_DONE);
    CHECK_EQ(act(2, FEED, 1).payload[0], MSG_DONE);
}

static void test_reset_with_a_card_at_the_station_boots_at_station_with_a_new_boot_id(void)
{
    ready(4);
    act(0, FEED, 1);
    board_reset();
    board_run_ms(5);
    block_t id = board_query(MSG_IDENTIFY);
    CHECK_EQ((id.payload[9] << 8) | id.payload[10], 8);
    CHECK_EQ(id.seq, 0);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[1], STATE_AT_STATION);
    CHECK_EQ(s.payload[7], 0xFF); /* no action has ended since boot */
    CHECK_EQ(route(0, W).payload[0], MSG_DONE);
    CHECK_EQ(test_vm.pocket_count[W], 1);
}

static void test_retransmission_from_before_a_reset_is_not_carried_out(void)
{
    ready(4);
    act(0, FEED, 1);
    route(1, N);
    board_reset();
    board_run_ms(5);
    /* The host never saw the reset and retransmits "feed, SEQ 0" from long ago. */
    board_forget_output();
    board_send(0, FEED, 1);
    board_run_ms(ACTION_MS);
    CHECK_EQ(cards_out_of_hopper(), 1);
}

static void test_lost_steps_show_at_home_and_stop_the_route(void)
{
    ready(4);
    act(0, FEED, 1);
    route(1, E);
    act(2, FEED, 1);
    test_vm.step_position = (test_vm.step_position + 3) % STEPS_PER_REV; /* slipped */
    block_t r = route(3, N);
    CHECK_EQ(r.payload[3], FAULT_JAM);
    CHECK_EQ(r.payload[4], WHERE_ROUTER);
    CHECK_EQ(test_vm.pocket_count[N], 0);
}

static void run_until(int (*condition)(void), unsigned limit_ms)
{
    while (limit_ms-- && !condition())
        board_run_ms(1);
}

static int card_falling(void)
{
    return test_vm.route == VM_FALLING;
}

static int card_in_throat(void)
{
    return (vm_sensors(&test_vm) & IN_PASS) != 0;
}

static void test_reset_after_the_card_left_the_station_still_delivers_it_to_the_pocket(void)
{
    ready(4);
    act(0, FEED, 1);
    const uint8_t to_south[] = {MSG_ROUTE, S};
    board_send(1, to_south, 2);
    run_until(card_falling, ACTION_MS);
    board_reset();
    board_run_ms(200);
    board_identify();
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[1], STATE_IDLE);
    CHECK_EQ(test_vm.pocket_count[S], 1);
    CHECK_EQ(s.payload[5], 1); /* counts restart at boot; this beam broke after it */
}

static void test_reset_with_a_card_in_the_throat_makes_the_next_feed_a_station_jam(void)
{
    ready(4);
    board_send(0, FEED, 1);
    run_until(card_in_throat, ACTION_MS);
    board_reset();
    board_run_ms(5);
    board_identify();
    CHECK_EQ(board_query(MSG_STATUS).payload[1], STATE_IDLE);
    block_t r = act(0, FEED, 1);
    CHECK_EQ(r.payload[3], FAULT_JAM);
    CHECK_EQ(r.payload[4], WHERE_READ_STATION);
    vm_clear_jam(&test_vm);
    CHECK_EQ(act(1, RESUME, 1).payload[0], MSG_DONE);
    CHECK_EQ(board_query(MSG_STATUS).payload[1], STATE_AT_STATION);
    CHECK(strcmp(test_vm.station[0].text, "AS") == 0);
    CHECK_EQ(cards_out_of_hopper(), 1);
}

static int exit_roller_running(void)
{
    return test_vm.exit_on;
}

static void test_card_that_falls_into_another_pocket_is_counted_there_and_stops_the_shoe(void)
{
    ready(4);
    act(0, FEED, 1);
    const uint8_t to_south[] = {MSG_ROUTE, S};
    board_forget_output();
    board_send(1, to_south, 2);
    run_until(exit_roller_running, ACTION_MS);
    test_vm.step_position = STEPS_PER_POCKET * E; /* the carousel slipped a whole pocket */
    board_run_ms(ACTION_MS);
    block_t r;
    CHECK(board_last_result(&r));
    CHECK_EQ(r.payload[3], FAULT_JAM);
    CHECK_EQ(r.payload[4], WHERE_ROUTER);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[3 + E], 1);
    CHECK_EQ(s.payload[3 + S], 0);
    CHECK_EQ(test_vm.pocket_count[E], 1);
}

static void test_card_falling_when_the_door_opens_is_still_counted_in_its_pocket(void)
{
    ready(4);
    act(0, FEED, 1);
    const uint8_t to_west[] = {MSG_ROUTE, W};
    board_send(1, to_west, 2);
    run_until(card_falling, ACTION_MS);
    test_vm.door_open = 1;
    board_run_ms(300);
    block_t s = board_query(MSG_STATUS);
    CHECK_EQ(s.payload[1], STATE_FAULT);
    CHECK_EQ(s.payload[8], FAULT_DOOR_OPEN);
    CHECK_EQ(s.payload[3 + W], 1);
    CHECK_EQ(test_vm.pocket_count[W], 1);
}

/* ---- the virtual machine the simulated targets share ---- */

static void test_vm_card_nudged_by_the_roller_still_lies_in_the_hopper(void)
{
    board_power_up(1);
    test_vm.feed_on = 1;
    vm_advance(&test_vm, test_vm.now_us + 1000); /* the firmware stops the roller 1 ms late */
    test_vm.feed_on = 0;
    CHECK_EQ(test_vm.feeding.count, 1);
    CHECK(!(vm_sensors(&test_vm) & IN_HOPPER_EMPTY));
}

static void test_vm_pair_is_pulled_apart_by_clearjam(void)
{
    board_power_up(3);
    test_vm.double_feed_armed = 1;
    test_vm.feed_on = 1;
    vm_advance(&test_vm, test_vm.now_us + 250000);
    test_vm.feed_on = 0;
    CHECK(vm_sensors(&test_vm) & IN_PASS);
    vm_clear_jam(&test_vm);
    CHECK_EQ(test_vm.station_count, 1);
    CHECK_EQ(test_vm.hopper_top, 1);
    CHECK(!(vm_sensors(&test_vm) & IN_PASS));
}

static const check_case_t CASES[] = {
#define CASE(name) {#name, name}
    CASE(test_crc16_ccitt_false_check_value),
    CASE(test_frame_round_trip),
    CASE(test_frame_with_bad_crc_is_dropped_and_the_next_block_is_read),
    CASE(test_frame_length_out_of_range_resyncs_at_the_next_sync),
    CASE(test_partial_block_is_abandoned_after_a_silent_gap),
    CASE(test_block_after_a_pause_is_read_even_when_the_last_one_lost_its_sync),
    CASE(test_boot_sends_the_reset_event_with_the_reset_cause),
    CASE(test_identify_reports_versions_geometry_boot_id_and_dictionary_crc),
    CASE(test_queries_do_not_advance_the_sequence),
    CASE(test_no_action_is_carried_out_before_identify),
    CASE(test_action_is_acknowledged_before_its_result),
    CASE(test_retransmitted_feed_after_its_result_is_answered_from_cache_not_fed_again),
    CASE(test_retransmitted_feed_while_running_gets_a_pure_ack_and_is_not_fed_again),
    CASE(test_retransmitted_route_never_drops_a_card_twice),
    CASE(test_out_of_order_block_is_dropped_with_an_ack_naming_the_expected_seq),
    CASE(test_new_action_while_one_runs_is_not_accepted),
    CASE(test_sequence_wraps_from_255_to_0),
    CASE(test_feed_leaves_one_card_at_the_station),
    CASE(test_route_delivers_to_the_named_pocket_and_reports_its_count),
    CASE(test_route_without_a_card_is_refused_as_bad_state),
    CASE(test_route_to_pocket_4_is_a_bad_argument),
    CASE(test_wrong_argument_count_names_the_first_missing_or_extra_argument),
    CASE(test_unknown_command_names_the_message_id),
    CASE(test_clear_counts_zeroes_every_pocket),
    CASE(test_feed_with_an_empty_hopper_is_refused_and_stays_idle),
    CASE(test_feed_jam_faults_at_the_feed_path_and_resume_recovers),
    CASE(test_double_feed_faults_and_leaves_both_cards_at_the_station),
    CASE(test_single_card_is_never_taken_for_a_double_feed),
    CASE(test_router_jam_faults_at_the_router),
    CASE(test_chute_jam_faults_at_that_pocket_and_counts_the_card),
    CASE(test_door_opening_mid_feed_stops_the_roller_and_faults),
    CASE(test_estop_while_idle_puts_the_shoe_in_fault_until_resumed),
    CASE(test_reset_with_a_card_at_the_station_boots_at_station_with_a_new_boot_id),
    CASE(test_retransmission_from_before_a_reset_is_not_carried_out),
    CASE(test_lost_steps_show_at_home_and_stop_the_route),
    CASE(test_reset_after_the_card_left_the_station_still_delivers_it_to_the_pocket),
    CASE(test_reset_with_a_card_in_the_throat_makes_the_next_feed_a_station_jam),
    CASE(test_card_that_falls_into_another_pocket_is_counted_there_and_stops_the_shoe),
    CASE(test_card_falling_when_the_door_opens_is_still_counted_in_its_pocket),
    CASE(test_vm_card_nudged_by_the_roller_still_lies_in_the_hopper),
    CASE(test_vm_pair_is_pulled_apart_by_clearjam),
#undef CASE
};

int main(void)
{
    int failed_cases = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        int before = check_failures;
        check_test = CASES[i].name;
        CASES[i].run();
        failed_cases += check_failures != before;
        printf("%s %s\n", check_failures != before ? "FAIL" : "ok  ", CASES[i].name);
    }
    printf("%zu tests, %d failed\n", sizeof CASES / sizeof *CASES, failed_cases);
    return failed_cases ? 1 : 0;
}
