/* The wire protocol's numbers (firmware/PROTOCOL.md, version 1).
 * Generated from scanner/shoe/protocol.json by firmware/tools/protocol_h.py: do not
 * edit; change the table and run make. */
#ifndef SHOE_PROTOCOL_H
#define SHOE_PROTOCOL_H

#define PROTOCOL_VERSION 1
/* The table's own CRC, sent in identity: a host built from another table refuses us. */
#define PROTOCOL_DICTIONARY_CRC 0x60B6

#define FRAME_SYNC 0x7E
#define FRAME_HEADER 2 /* LEN, SEQ */
#define FRAME_TRAILER 3 /* CRC hi, CRC lo, SYNC */
#define FRAME_MIN (FRAME_HEADER + FRAME_TRAILER)
#define FRAME_MAX 64
#define PAYLOAD_MAX (FRAME_MAX - FRAME_MIN)

/* host -> shoe */
enum {
    MSG_IDENTIFY = 0x01,
    MSG_STATUS = 0x02,
    MSG_FEED = 0x10,
    MSG_ROUTE = 0x11,
    MSG_CLEAR_COUNTS = 0x12,
    MSG_RESUME = 0x13,
};

/* shoe -> host */
enum {
    MSG_IDENTITY = 0x81,
    MSG_STATUS_REPLY = 0x82,
    MSG_DONE = 0x90,
    MSG_FAULT = 0x91,
    MSG_EVENT = 0xA0,
};

enum shoe_state {
    STATE_IDLE = 0,
    STATE_FEEDING = 1,
    STATE_AT_STATION = 2,
    STATE_ROUTING = 3,
    STATE_FAULT = 4,
};

enum {
    FLAG_CARD_AT_STATION = 1 << 0,
    FLAG_HOPPER_EMPTY = 1 << 1,
    FLAG_DOOR_OPEN = 1 << 2,
    FLAG_ESTOP = 1 << 3,
};

enum fault_code {
    RESULT_OK = 0,
    FAULT_JAM = 1,
    FAULT_DOUBLE_FEED = 2,
    FAULT_HOPPER_EMPTY = 3,
    FAULT_DOOR_OPEN = 4,
    FAULT_ESTOP = 5,
    FAULT_BAD_STATE = 6,
    FAULT_BAD_ARGUMENT = 7,
    FAULT_UNKNOWN_COMMAND = 8,
};

/* fault.where for FAULT_JAM; WHERE_POCKET_CHUTE + the pocket's index */
enum {
    WHERE_FEED_PATH = 0,
    WHERE_READ_STATION = 1,
    WHERE_ROUTER = 2,
    WHERE_POCKET_CHUTE = 3,
};

enum event_code {
    EVENT_RESET = 1,
    EVENT_DOOR_OPENED = 2,
    EVENT_DOOR_CLOSED = 3,
    EVENT_ESTOP_PRESSED = 4,
    EVENT_ESTOP_RELEASED = 5,
};

#define POCKET_COUNT 4

#endif
