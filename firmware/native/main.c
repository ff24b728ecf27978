/* shoe-native: the firmware core compiled for the host, on the virtual machine, its serial
 * line a pty, with the simulator control channel on 127.0.0.1. The third conformance target
 * next to the Python simulator and the AVR image under simavr: it answers like the AVR.
 *
 *   shoe-native [--deck FILE] [--speed X]
 *
 * Prints {"serial": "/dev/pts/N", "control": "127.0.0.1:PORT"} on stdout, then serves until
 * `quit`, SIGINT or SIGTERM. Simulated time runs at X times the wall clock (default 1). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/shoe.h"
#include "../machine/control.h"
#include "board.h"

#define POWER_ON_RESET 0x01 /* MCUSR PORF, as the AVR reports its first boot */

typedef struct {
    native_board_t board;
    shoe_t shoe;
    control_t control;
    double speed;
    struct timespec wall_start;
    uint64_t sim_base_us;  /* simulated time at wall_start */
    uint64_t ticked_ms;    /* simulated milliseconds the core has been ticked through */
} native_t;

static volatile sig_atomic_t stop_requested; /* set by the signal handler only */

static void on_signal(int signo)
{
    (void)signo;
    stop_requested = 1;
}

static uint64_t sim_now_us(const native_t *n)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double wall = (double)(now.tv_sec - n->wall_start.tv_sec) * 1e6
                  + (double)(now.tv_nsec - n->wall_start.tv_nsec) / 1e3;
    return n->sim_base_us + (uint64_t)(wall * n->speed);
}

static uint64_t clock_us(void *context)
{
    const native_t *n = context;
    return n->ticked_ms * 1000;
}

static void boot(native_t *n, uint8_t cause)
{
    shoe_init(&n->shoe, n->board.eeprom_boot_count++, cause, (uint16_t)n->ticked_ms);
}

static void reset_mcu(void *context)
{
    native_t *n = context;
    boot(n, 0); /* what simavr's avr_reset leaves in MCUSR */
}

/* Tick the core and the mechanics through every simulated millisecond up to now. */
static void catch_up(native_t *n)
{
    uint64_t now_ms = sim_now_us(n) / 1000;
    while (n->ticked_ms < now_ms) {
        n->ticked_ms++;
        vm_advance(&n->board.vm, n->ticked_ms * 1000);
        control_watch(&n->control);
        shoe_tick(&n->shoe, (uint16_t)n->ticked_ms);
    }
}

static void read_host(native_t *n)
{
    uint8_t bytes[256];
    ssize_t got = read(n->board.pty.master, bytes, sizeof bytes);
    for (ssize_t i = 0; i < got; i++)
        shoe_receive(&n->shoe, bytes[i], (uint16_t)n->ticked_ms);
}

static int run(native_t *n)
{
    while (!stop_requested && !n->control.quit) {
        catch_up(n);
        struct pollfd fds[2 + CONTROL_CLIENTS];
        fds[0] = (struct pollfd){.fd = n->board.pty.master, .events = POLLIN};
        int count = 1 + control_pollfds(&n->control, fds + 1);
        if (poll(fds, (nfds_t)count, 1) < 0 && errno != EINTR)
            return 1;
        catch_up(n);
        if (fds[0].revents & POLLIN)
            read_host(n);
        control_service(&n->control);
    }
    return 0;
}

static void usage(const char *why)
{
    fprintf(stderr, "shoe-native: %s\nusage: shoe-native [--deck FILE] [--speed X]\n", why);
    exit(2);
}

int main(int argc, char **argv)
{
    static native_t n; /* large (the virtual deck): keep it off the stack */
    const char *deck = 0;
    n.speed = 1.0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage("every option takes a value");
        if (strcmp(argv[i], "--deck") == 0) {
            deck = argv[++i];
        } else if (strcmp(argv[i], "--speed") == 0) {
            char *end;
            n.speed = strtod(argv[++i], &end);
            if (*end || n.speed <= 0)
                usage("--speed takes a number > 0");
        } else {
            usage("unknown option");
        }
    }

    vm_init(&n.board.vm);
    native_board_attach(&n.board);
    if (control_open(&n.control, &n.board.vm, (control_target_t){reset_mcu, clock_us, &n}) < 0) {
        perror("shoe-native: control socket");
        return 1;
    }
    if (deck) {
        char reply[512], command[4200];
        snprintf(command, sizeof command, "deck %s", deck);
        control_execute(&n.control, command, reply, sizeof reply);
        if (strncmp(reply, "ok", 2) != 0) {
            fprintf(stderr, "shoe-native: --deck: %s\n", reply + 4);
            return 2;
        }
    }
    if (serial_pty_open(&n.board.pty) < 0) {
        perror("shoe-native: pty");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &n.wall_start);
    boot(&n, POWER_ON_RESET);

    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("{\"serial\": \"%s\", \"control\": \"127.0.0.1:%d\"}\n", n.board.pty.path,
           n.control.port);
    fflush(stdout);

    int status = run(&n);
    control_close(&n.control);
    serial_pty_close(&n.board.pty);
    return status;
}
