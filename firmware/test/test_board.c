#include "test_board.h"

#include <string.h>

#include "../core/hal.h"
#include "../machine/vdeck.h"

vmachine_t test_vm;
shoe_t test_shoe;

static uint32_t now_ms;
static uint16_t boot_count;
static uint8_t output[8192];
static size_t output_length, output_read;

uint16_t hal_read_inputs(void) { return vm_sensors(&test_vm); }
void hal_feed_motor(uint8_t on) { test_vm.feed_on = on; }
void hal_exit_motor(uint8_t on) { test_vm.exit_on = on; }
void hal_stepper_enable(uint8_t on) { test_vm.stepper_on = on; }
void hal_step(int8_t direction) { vm_step(&test_vm, direction); }

void hal_serial_write(const uint8_t *bytes, uint8_t length)
{
    if (output_length + length <= sizeof output) {
        memcpy(output + output_length, bytes, length);
        output_length += length;
    }
}

void board_power_up(int cards)
{
    static const char ranks[] = "AKQJT98765432";
    static const char suits[] = "SHDC";
    vcard_t deck[52];
    for (int i = 0; i < cards; i++) {
        deck[i].text[0] = ranks[i % 13];
        deck[i].text[1] = suits[(i / 13) % 4];
        deck[i].text[2] = 0;
        deck[i].down = 0;
    }
    vm_init(&test_vm);
    vm_load(&test_vm, deck, cards);
    now_ms = 1000;
    test_vm.now_us = (uint64_t)now_ms * 1000;
    boot_count = 7;
    board_forget_output();
    shoe_init(&test_shoe, boot_count, 0x01, (uint16_t)now_ms);
}

void board_reset(void)
{
    vm_power_loss(&test_vm);
    shoe_init(&test_shoe, ++boot_count, 0x00, (uint16_t)now_ms);
}

void board_run_ms(unsigned ms)
{
    while (ms--) {
        now_ms++;
        vm_advance(&test_vm, (uint64_t)now_ms * 1000);
        shoe_tick(&test_shoe, (uint16_t)now_ms);
    }
}

void board_send_bytes(const uint8_t *bytes, uint8_t length)
{
    for (uint8_t i = 0; i < length; i++)
        shoe_receive(&test_shoe, bytes[i], (uint16_t)now_ms);
}

void board_send(uint8_t seq, const uint8_t *payload, uint8_t length)
{
    uint8_t block[FRAME_MAX];
    board_send_bytes(block, frame_encode(block, seq, payload, length));
}

void board_forget_output(void)
{
    output_length = output_read = 0;
}

int board_next_block(block_t *out)
{
    static frame_decoder_t decoder;
    frame_t frame;
    while (output_read < output_length) {
        if (frame_decoder_push(&decoder, output[output_read++], &frame)) {
            out->seq = frame.seq;
            out->length = frame.length;
            memcpy(out->payload, frame.payload, frame.length);
            return 1;
        }
    }
    return 0;
}

int board_last_result(block_t *out)
{
    block_t block;
    int found = 0;
    while (board_next_block(&block)) {
        if (block.length && (block.payload[0] == MSG_DONE || block.payload[0] == MSG_FAULT)) {
            *out = block;
            found = 1;
        }
    }
    return found;
}

void board_identify(void)
{
    board_query(MSG_IDENTIFY);
}

block_t board_query(uint8_t message)
{
    block_t block = {0};
    board_forget_output();
    board_send(0x5A, &message, 1);
    board_next_block(&block);
    board_forget_output();
    return block;
}
