/* shoe-sim: the unchanged AVR image (build/shoe.elf) under simavr, its UART on a pty, its
 * sensors driven by the virtual machine (firmware/machine/) from the pins it drives, and the
 * simulator control channel on 127.0.0.1.
 *
 *   shoe-sim [--deck FILE] [--speed X] [--elf FILE]
 *
 * Prints {"serial": "/dev/pts/N", "control": "127.0.0.1:PORT"} on stdout, then serves until
 * `quit`, SIGINT or SIGTERM. --speed 1 (the default) keeps simulated time at wall-clock pace,
 * because the host's timeouts are wall-clock; 0 runs as fast as the CPU allows. */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_time.h>

#include "../avr/pins.h"
#include "../core/hal.h"
#include "../machine/control.h"
#include "../machine/serial_pty.h"
#include "../machine/vmachine.h"

#define MCU_NAME "atmega328p"
#define MCU_HZ 16000000
#define SENSOR_PERIOD_US 100 /* virtual sensors re-read 10 times per firmware tick */
#define SLICE_CYCLES (MCU_HZ / 1000)
#define BOOT_CYCLES (MCU_HZ / 100) /* the firmware is up and has sent `reset` within 10 ms */
#define RX_BACKLOG 4096
#define LEVEL_HIGH 1
#define LEVEL_LOW 0

typedef struct {
    char port;
    int bit;
    uint16_t hal_bit;
    int active_level;
    avr_irq_t *irq;
    int level; /* what we last drove: the IRQ's own value also follows the pull-up */
} input_pin_t;

#define COUNT_PIN(...) +1
enum { INPUT_PINS = 0 SHOE_INPUTS(COUNT_PIN) };

typedef struct {
    avr_t *avr;
    vmachine_t vm;
    control_t control;
    serial_pty_t pty;
    input_pin_t inputs[INPUT_PINS];
    int input_levels_valid;
    unsigned external[3]; /* levels last given to ports B, C, D */
    avr_irq_t *uart_input;
    uint8_t rx[RX_BACKLOG];
    size_t rx_length, rx_sent;
    int uart_xoff;
    int step_level, dir_level;
    /* simulated time that survives avr_reset, in microseconds */
    uint64_t sim_us_base;
    avr_cycle_count_t cycle_base;
    double speed;
    struct timespec wall_start;
    uint64_t sim_at_wall_start;
    unsigned long resets;
    uint64_t instructions; /* executed while awake: how busy the firmware is */
} harness_t;

static volatile sig_atomic_t stop_requested; /* set by the signal handler only */

static void on_signal(int signo)
{
    (void)signo;
    stop_requested = 1;
}

static uint64_t sim_us(const harness_t *h)
{
    return h->sim_us_base + avr_cycles_to_usec(h->avr, h->avr->cycle - h->cycle_base);
}

static void sync_machine(harness_t *h)
{
    vm_advance(&h->vm, sim_us(h));
}

static void drive_sensors(harness_t *h)
{
    uint16_t sensed = vm_sensors(&h->vm);
    avr_ioport_external_t external[3] = {{.name = 'B'}, {.name = 'C'}, {.name = 'D'}};
    for (int i = 0; i < INPUT_PINS; i++) {
        input_pin_t *pin = &h->inputs[i];
        int level = (sensed & pin->hal_bit) ? pin->active_level : !pin->active_level;
        avr_ioport_external_t *port = &external[pin->port - 'B'];
        port->mask |= 1u << pin->bit;
        port->value |= (unsigned)level << pin->bit;
        if (!h->input_levels_valid) {
            /* After avr_reset the port's PIN register is cleared but the IRQ still holds our
             * last level, and simavr drops a raise that does not change it: toggle through. */
            avr_raise_irq(pin->irq, (uint32_t)!level);
            avr_raise_irq(pin->irq, (uint32_t)level);
        } else if (pin->level != level) {
            avr_raise_irq(pin->irq, (uint32_t)level);
        }
        pin->level = level;
    }
    /* Also tell the port what the outside world drives, or a later write to PORTx (the
     * firmware turning its pull-ups on) would overwrite our levels with the pull-up's. */
    for (int p = 0; p < 3; p++) {
        if (external[p].mask && (!h->input_levels_valid || external[p].value != h->external[p])) {
            h->external[p] = external[p].value;
            avr_ioctl(h->avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(external[p].name), &external[p]);
        }
    }
    h->input_levels_valid = 1;
}

static avr_cycle_count_t sensor_timer(avr_t *avr, avr_cycle_count_t when, void *param)
{
    harness_t *h = param;
    sync_machine(h);
    drive_sensors(h);
    return when + avr_usec_to_cycles(avr, SENSOR_PERIOD_US);
}

/* ---- outputs: the AVR's pins move the virtual mechanics ---- */

static void on_feed(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    harness_t *h = param;
    sync_machine(h);
    h->vm.feed_on = value == LEVEL_HIGH;
}

static void on_exit_roller(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    harness_t *h = param;
    sync_machine(h);
    h->vm.exit_on = value == LEVEL_HIGH;
}

static void on_stepper_enable(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    harness_t *h = param;
    h->vm.stepper_on = value == LEVEL_LOW; /* A4988 ~ENABLE */
}

static void on_dir(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    harness_t *h = param;
    h->dir_level = (int)value;
}

static void on_step(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    harness_t *h = param;
    if (value && !h->step_level) /* the A4988 steps on the rising edge */
        vm_step(&h->vm, h->dir_level ? 1 : -1);
    h->step_level = (int)value;
}

/* ---- the UART, both ways ---- */

static void uart_push(harness_t *h)
{
    while (!h->uart_xoff && h->rx_sent < h->rx_length)
        avr_raise_irq(h->uart_input, h->rx[h->rx_sent++]);
    if (h->rx_sent == h->rx_length)
        h->rx_sent = h->rx_length = 0;
}

static void on_uart_xon(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    harness_t *h = param;
    h->uart_xoff = 0;
    uart_push(h);
}

static void on_uart_xoff(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    harness_t *h = param;
    h->uart_xoff = 1;
}

static void on_uart_output(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    harness_t *h = param;
    uint8_t byte = (uint8_t)value;
    /* Nobody reading and the pty full: the byte is lost, as on a real unplugged cable. */
    (void)!write(h->pty.master, &byte, 1);
}

static avr_irq_t *pin_irq(avr_t *avr, char port, int bit)
{
    return avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), bit);
}

static void wire_pins(harness_t *h)
{
    int i = 0;
#define WIRE_INPUT(sig, port, bit, nano, level, hal, wiring) \
    h->inputs[i++] = (input_pin_t){#port[0], bit, hal, LEVEL_##level, 0, 0};
    SHOE_INPUTS(WIRE_INPUT)
#undef WIRE_INPUT
    for (i = 0; i < INPUT_PINS; i++)
        h->inputs[i].irq = pin_irq(h->avr, h->inputs[i].port, h->inputs[i].bit);

    static const struct {
        const char *signal;
        avr_irq_notify_t notify;
    } outputs[] = {
        {"FEED", on_feed}, {"EXIT", on_exit_roller}, {"STEP", on_step},
        {"DIR", on_dir}, {"STEPPER_EN", on_stepper_enable},
    };
    for (size_t o = 0; o < sizeof outputs / sizeof *outputs; o++) {
#define WIRE_OUTPUT(sig, port, bit, nano, level, wiring) \
        if (strcmp(outputs[o].signal, #sig) == 0) \
            avr_irq_register_notify(pin_irq(h->avr, #port[0], bit), outputs[o].notify, h);
        SHOE_OUTPUTS(WIRE_OUTPUT)
#undef WIRE_OUTPUT
    }
}

static void wire_uart(harness_t *h)
{
    uint32_t flags = 0; /* no console echo (stdout carries JSON), no sleeping on polls */
    avr_ioctl(h->avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    h->uart_input = avr_io_getirq(h->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(h->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_output, h);
    avr_irq_register_notify(avr_io_getirq(h->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            on_uart_xon, h);
    avr_irq_register_notify(avr_io_getirq(h->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            on_uart_xoff, h);
}

/* We throttle ourselves against the wall clock; simavr must not usleep on its own. */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
    (void)avr;
    (void)how_long;
}

static void start_mcu(harness_t *h)
{
    h->input_levels_valid = 0;
    h->step_level = 0;
    h->uart_xoff = 0;
    drive_sensors(h); /* the sensors are live before the first instruction runs */
    avr_cycle_timer_register_usec(h->avr, SENSOR_PERIOD_US, sensor_timer, h);
}

static void reset_mcu(void *context)
{
    harness_t *h = context;
    sync_machine(h);
    h->sim_us_base = sim_us(h);
    avr_reset(h->avr);
    h->cycle_base = h->avr->cycle;
    h->resets++;
    start_mcu(h);
}

static uint64_t clock_us(void *context)
{
    return sim_us(context);
}

static uint64_t wall_us(const harness_t *h)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t us = (int64_t)(now.tv_sec - h->wall_start.tv_sec) * 1000000
                 + (now.tv_nsec - h->wall_start.tv_nsec) / 1000;
    return (uint64_t)us;
}

/* How long to wait for input before simulating on: until wall time catches up. */
static struct timespec wait_time(const harness_t *h)
{
    struct timespec wait = {0, 0};
    if (h->speed <= 0)
        return wait;
    double due_us = (double)(sim_us(h) - h->sim_at_wall_start) / h->speed;
    double ahead_us = due_us - (double)wall_us(h);
    if (ahead_us > 0) {
        wait.tv_sec = (time_t)(ahead_us / 1e6);
        wait.tv_nsec = (long)((ahead_us - (double)wait.tv_sec * 1e6) * 1e3);
    }
    return wait;
}

static void read_host(harness_t *h)
{
    if (h->rx_length == RX_BACKLOG)
        return;
    ssize_t got = read(h->pty.master, h->rx + h->rx_length, RX_BACKLOG - h->rx_length);
    if (got > 0)
        h->rx_length += (size_t)got;
    uart_push(h);
}

/* Run the AVR for `cycles`; returns 0, or 1 if it crashed or stopped. */
static int simulate(harness_t *h, avr_cycle_count_t cycles)
{
    avr_cycle_count_t until = h->avr->cycle + cycles;
    while (h->avr->cycle < until) {
        h->instructions += h->avr->state == cpu_Running;
        int state = avr_run(h->avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "shoe-sim: the AVR %s at pc 0x%04x\n",
                    state == cpu_Crashed ? "crashed" : "stopped", h->avr->pc);
            return 1;
        }
    }
    return 0;
}

static int run(harness_t *h)
{
    while (!stop_requested && !h->control.quit) {
        if (simulate(h, SLICE_CYCLES))
            return 1;
        struct pollfd fds[2 + CONTROL_CLIENTS];
        fds[0] = (struct pollfd){.fd = h->pty.master, .events = POLLIN};
        int n = 1 + control_pollfds(&h->control, fds + 1);
        struct timespec wait = wait_time(h);
        if (ppoll(fds, (nfds_t)n, &wait, 0) < 0 && errno != EINTR)
            return 1;
        if (fds[0].revents & POLLIN)
            read_host(h);
        else
            uart_push(h);
        control_service(&h->control);
        sync_machine(h);
        control_watch(&h->control);
    }
    return 0;
}

static void usage(const char *why)
{
    fprintf(stderr, "shoe-sim: %s\nusage: shoe-sim [--deck FILE] [--speed X] [--elf FILE]\n", why);
    exit(2);
}

int main(int argc, char **argv)
{
    static harness_t h; /* large (the virtual deck): keep it off the stack */
    char default_elf[4096];
    snprintf(default_elf, sizeof default_elf, "%s/shoe.elf", dirname(strdup(argv[0])));
    const char *elf_path = default_elf;
    const char *deck = 0;
    h.speed = 1.0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage("every option takes a value");
        if (strcmp(argv[i], "--deck") == 0) {
            deck = argv[++i];
        } else if (strcmp(argv[i], "--elf") == 0) {
            elf_path = argv[++i];
        } else if (strcmp(argv[i], "--speed") == 0) {
            char *end;
            h.speed = strtod(argv[++i], &end);
            if (*end || h.speed < 0)
                usage("--speed takes a number >= 0 (0: as fast as possible)");
        } else {
            usage("unknown option");
        }
    }

    vm_init(&h.vm);
    if (control_open(&h.control, &h.vm, (control_target_t){reset_mcu, clock_us, &h}) < 0) {
        perror("shoe-sim: control socket");
        return 1;
    }
    if (deck) {
        char reply[512], command[4200];
        snprintf(command, sizeof command, "deck %s", deck);
        control_execute(&h.control, command, reply, sizeof reply);
        if (strncmp(reply, "ok", 2) != 0) {
            fprintf(stderr, "shoe-sim: --deck: %s\n", reply + 4);
            return 2;
        }
    }

    elf_firmware_t firmware = {0};
    /* simavr's loader chats on stdout, which carries only our JSON line: point it at stderr. */
    fflush(stdout);
    int saved_stdout = dup(STDOUT_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    int loaded = elf_read_firmware(elf_path, &firmware);
    fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
    if (loaded != 0) {
        fprintf(stderr, "shoe-sim: cannot load the AVR image %s\n", elf_path);
        return 2;
    }
    /* The image is the one flashed to a Nano: it carries no simavr MCU section. */
    snprintf(firmware.mmcu, sizeof firmware.mmcu, "%s", MCU_NAME);
    firmware.frequency = MCU_HZ;
    h.avr = avr_make_mcu_by_name(firmware.mmcu);
    if (!h.avr || avr_init(h.avr) != 0) {
        fprintf(stderr, "shoe-sim: simavr has no %s\n", MCU_NAME);
        return 1;
    }
    avr_load_firmware(h.avr, &firmware);
    h.avr->sleep = no_sleep;
    h.avr->log = LOG_ERROR;

    if (serial_pty_open(&h.pty) < 0) {
        perror("shoe-sim: pty");
        return 1;
    }
    wire_pins(&h);
    wire_uart(&h);
    h.cycle_base = h.avr->cycle;
    start_mcu(&h);

    /* Like shoe-native, be booted (reset event sent) before announcing the port. */
    if (simulate(&h, BOOT_CYCLES))
        return 1;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("{\"serial\": \"%s\", \"control\": \"127.0.0.1:%d\"}\n", h.pty.path, h.control.port);
    fflush(stdout);
    clock_gettime(CLOCK_MONOTONIC, &h.wall_start);
    h.sim_at_wall_start = sim_us(&h);

    int status = run(&h);
    fprintf(stderr, "shoe-sim: %.3f s simulated, %llu AVR instructions executed, %lu resets, "
            "%d cards in the pockets\n",
            (double)sim_us(&h) / 1e6, (unsigned long long)h.instructions, h.resets,
            h.vm.pocket_count[0] + h.vm.pocket_count[1] + h.vm.pocket_count[2]
                + h.vm.pocket_count[3]);
    control_close(&h.control);
    serial_pty_close(&h.pty);
    avr_terminate(h.avr);
    return status;
}
