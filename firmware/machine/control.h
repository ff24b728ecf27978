/* The simulator control channel: a line-based text protocol on 127.0.0.1 TCP, shared by every
 * simulated shoe (this C one, and scanner/shoe's Python simulator). One command a line,
 * answered "ok ..." or "err <reason>":
 *   deck <path> | station | jam feed|router|pocket N | doublefeed | empty | door open|close
 *   | estop on|off | reset | clearjam | pockets | quit
 * and, on the C targets only, `clock` -> "ok <simulated microseconds>" for benchmarks, and
 * `reset when turning|exit|falling|beam`, which arms one reset that fires the moment the next
 * routed card reaches that point of its path (see control_watch), so a test can reset the MCU
 * at an exact instant of a route however fast the target runs. */
#ifndef CONTROL_H
#define CONTROL_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "vmachine.h"

#define CONTROL_CLIENTS 8
#define CONTROL_LINE 512

typedef struct control control_t;

enum reset_when {
    RESET_WHEN_NEVER,
    RESET_WHEN_TURNING,
    RESET_WHEN_EXIT,
    RESET_WHEN_FALLING,
    RESET_WHEN_BEAM,
};

/* What differs between targets: `reset` restarts the MCU and keeps the cards where they are;
 * `clock` reports the target's simulated time, in which the firmware's own speed is measured. */
typedef struct {
    void (*reset)(void *context);
    uint64_t (*clock_us)(void *context);
    void *context;
} control_target_t;

struct control {
    int listen_fd;
    int port;
    int client_fd[CONTROL_CLIENTS];
    char line[CONTROL_CLIENTS][CONTROL_LINE];
    size_t line_length[CONTROL_CLIENTS];
    vmachine_t *vm;
    control_target_t target;
    int reset_when; /* enum reset_when: an armed reset, fired by control_watch */
    int quit;
};

/* Listen on 127.0.0.1 at a port the OS picks; returns 0, or -1 with errno set. */
int control_open(control_t *c, vmachine_t *vm, control_target_t target);

/* Append the descriptors to wait on; returns how many were added (at most 1 + clients). */
int control_pollfds(const control_t *c, struct pollfd *fds);

/* Accept, read and answer whatever is ready, without blocking. */
void control_service(control_t *c);

/* Fire an armed reset if the mechanics have reached its point; the targets call it each time
 * they advance the mechanics (every simulated millisecond at most). */
void control_watch(control_t *c);

/* Execute one command line; the reply (without newline) goes into reply. */
void control_execute(control_t *c, const char *line, char *reply, size_t reply_size);

void control_close(control_t *c);

#endif
