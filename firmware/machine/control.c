#include "control.h"

#include "../core/hal.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef void (*command_fn)(control_t *c, const char *arg, char *reply, size_t size);

static void cmd_deck(control_t *c, const char *arg, char *reply, size_t size)
{
    vcard_t cards[VDECK_MAX_CARDS];
    char error[300];
    if (!*arg) {
        snprintf(reply, size, "err deck needs a file path");
        return;
    }
    int count = vdeck_load(arg, cards, VDECK_MAX_CARDS, error, sizeof error);
    if (count < 0) {
        snprintf(reply, size, "err %s", error);
        return;
    }
    vm_load(c->vm, cards, count);
    snprintf(reply, size, "ok %d cards", count);
}

static void cmd_station(control_t *c, const char *arg, char *reply, size_t size)
{
    (void)arg;
    const vcard_t *card = vm_station_card(c->vm);
    if (card)
        snprintf(reply, size, "ok %s %s", card->text, card->down ? "down" : "up");
    else
        snprintf(reply, size, "ok none");
}

static void cmd_jam(control_t *c, const char *arg, char *reply, size_t size)
{
    static const char names[] = "NESW";
    if (strcmp(arg, "feed") == 0) {
        c->vm->jam_feed = 1;
    } else if (strcmp(arg, "router") == 0) {
        c->vm->jam_router = 1;
    } else if (strncmp(arg, "pocket ", 7) == 0 && strlen(arg) == 8
               && strchr(names, toupper((unsigned char)arg[7]))) {
        c->vm->jam_pocket = (int)(strchr(names, toupper((unsigned char)arg[7])) - names);
    } else {
        snprintf(reply, size, "err jam takes feed, router or pocket N|E|S|W, not '%s'", arg);
        return;
    }
    snprintf(reply, size, "ok jam %s", arg);
}

static void cmd_doublefeed(control_t *c, const char *arg, char *reply, size_t size)
{
    (void)arg;
    c->vm->double_feed_armed = 1;
    snprintf(reply, size, "ok the next feed takes two cards stuck together");
}

static void cmd_empty(control_t *c, const char *arg, char *reply, size_t size)
{
    (void)arg;
    vm_empty_hopper(c->vm);
    snprintf(reply, size, "ok hopper empty");
}

static int on_off(const char *arg, const char *on, const char *off)
{
    if (strcmp(arg, on) == 0)
        return 1;
    if (strcmp(arg, off) == 0)
        return 0;
    return -1;
}

static void cmd_door(control_t *c, const char *arg, char *reply, size_t size)
{
    int open = on_off(arg, "open", "close");
    if (open < 0) {
        snprintf(reply, size, "err door takes open or close, not '%s'", arg);
        return;
    }
    c->vm->door_open = (uint8_t)open;
    snprintf(reply, size, "ok door %s", arg);
}

static void cmd_estop(control_t *c, const char *arg, char *reply, size_t size)
{
    int pressed = on_off(arg, "on", "off");
    if (pressed < 0) {
        snprintf(reply, size, "err estop takes on or off, not '%s'", arg);
        return;
    }
    c->vm->estop = (uint8_t)pressed;
    snprintf(reply, size, "ok estop %s", arg);
}

static void reset_now(control_t *c)
{
    vm_power_loss(c->vm);
    c->target.reset(c->target.context);
}

/* Where along its path the card being routed is when an armed reset fires. A route starts by
 * enabling the carousel's stepper and ends by disabling it once the card has left the beam. */
static const char *const ROUTE_POINTS[] = {
    [RESET_WHEN_TURNING] = "turning", /* route accepted, the card still resting on the station */
    [RESET_WHEN_EXIT] = "exit",       /* the exit roller pushing it off the station */
    [RESET_WHEN_FALLING] = "falling", /* off the station, not yet at the break beam */
    [RESET_WHEN_BEAM] = "beam",       /* in the beam: counted, its `done` not yet sent */
};

static int route_point_reached(const vmachine_t *vm, int point)
{
    switch (point) {
    case RESET_WHEN_TURNING:
        return vm->stepper_on && vm->station_count && !vm->exit_on;
    case RESET_WHEN_EXIT:
        return vm->exit_on && vm->station_count && vm->exit_us > 0;
    case RESET_WHEN_FALLING:
        return vm->route == VM_FALLING && !(vm_sensors(vm) & IN_BEAM(vm->fall_pocket));
    case RESET_WHEN_BEAM:
        return vm->route == VM_FALLING && (vm_sensors(vm) & IN_BEAM(vm->fall_pocket));
    default:
        return 0;
    }
}

static void cmd_reset(control_t *c, const char *arg, char *reply, size_t size)
{
    if (!*arg) {
        reset_now(c);
        snprintf(reply, size, "ok reset");
        return;
    }
    if (strncmp(arg, "when ", 5) == 0) {
        for (int p = RESET_WHEN_TURNING; p <= RESET_WHEN_BEAM; p++) {
            if (strcmp(arg + 5, ROUTE_POINTS[p]) == 0) {
                c->reset_when = p;
                snprintf(reply, size, "ok reset when %s", ROUTE_POINTS[p]);
                return;
            }
        }
    }
    snprintf(reply, size, "err reset takes nothing, or when turning|exit|falling|beam");
}

void control_watch(control_t *c)
{
    if (c->reset_when && route_point_reached(c->vm, c->reset_when)) {
        c->reset_when = RESET_WHEN_NEVER;
        reset_now(c);
    }
}

static void cmd_clearjam(control_t *c, const char *arg, char *reply, size_t size)
{
    (void)arg;
    vm_clear_jam(c->vm);
    snprintf(reply, size, "ok jam cleared");
}

static void cmd_pockets(control_t *c, const char *arg, char *reply, size_t size)
{
    static const char names[] = "NESW";
    (void)arg;
    size_t used = (size_t)snprintf(reply, size, "ok");
    for (int p = 0; p < VM_POCKETS && used < size; p++) {
        used += (size_t)snprintf(reply + used, size - used, " %c:", names[p]);
        for (int i = 0; i < c->vm->pocket_count[p] && used < size; i++)
            used += (size_t)snprintf(reply + used, size - used, "%s%s", i ? "," : "",
                                     c->vm->pockets[p][i].text);
    }
}

static void cmd_clock(control_t *c, const char *arg, char *reply, size_t size)
{
    (void)arg;
    snprintf(reply, size, "ok %llu", (unsigned long long)c->target.clock_us(c->target.context));
}

static void cmd_quit(control_t *c, const char *arg, char *reply, size_t size)
{
    (void)arg;
    c->quit = 1;
    snprintf(reply, size, "ok bye");
}

static const struct {
    const char *name;
    command_fn run;
} COMMANDS[] = {
    {"deck", cmd_deck},       {"station", cmd_station}, {"jam", cmd_jam},
    {"doublefeed", cmd_doublefeed}, {"empty", cmd_empty}, {"door", cmd_door},
    {"estop", cmd_estop},     {"reset", cmd_reset},     {"clearjam", cmd_clearjam},
    {"pockets", cmd_pockets}, {"clock", cmd_clock}, {"quit", cmd_quit},
};

/* Whether s is well-formed UTF-8: replies echo the command's name, and the host reads every
   reply as UTF-8. */
static int is_utf8(const unsigned char *s)
{
    while (*s) {
        int more = *s < 0x80 ? 0 : (*s & 0xE0) == 0xC0 ? 1 : (*s & 0xF0) == 0xE0 ? 2
                 : (*s & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0 || (more == 1 && *s < 0xC2))
            return 0;
        for (s++; more > 0; more--, s++)
            if ((*s & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

void control_execute(control_t *c, const char *line, char *reply, size_t reply_size)
{
    if (!is_utf8((const unsigned char *)line)) {
        snprintf(reply, reply_size, "err the command is not UTF-8 text");
        return;
    }
    char text[CONTROL_LINE];
    snprintf(text, sizeof text, "%s", line);
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        text[--n] = 0;
    char *name = text + strspn(text, " \t");
    char *arg = name + strcspn(name, " \t");
    if (*arg)
        *arg++ = 0;
    arg += strspn(arg, " \t");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++) {
        if (strcmp(COMMANDS[i].name, name) == 0) {
            COMMANDS[i].run(c, arg, reply, reply_size);
            return;
        }
    }
    snprintf(reply, reply_size, "err unknown command '%s'", name);
}

int control_open(control_t *c, vmachine_t *vm, control_target_t target)
{
    memset(c, 0, sizeof *c);
    c->vm = vm;
    c->target = target;
    for (int i = 0; i < CONTROL_CLIENTS; i++)
        c->client_fd[i] = -1;
    c->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->listen_fd < 0)
        return -1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(c->listen_fd, (struct sockaddr *)&address, sizeof address) < 0
        || listen(c->listen_fd, CONTROL_CLIENTS) < 0
        || getsockname(c->listen_fd, (struct sockaddr *)&address, &length) < 0)
        return -1;
    c->port = ntohs(address.sin_port);
    return 0;
}

int control_pollfds(const control_t *c, struct pollfd *fds)
{
    int n = 0;
    fds[n++] = (struct pollfd){.fd = c->listen_fd, .events = POLLIN};
    for (int i = 0; i < CONTROL_CLIENTS; i++)
        if (c->client_fd[i] >= 0)
            fds[n++] = (struct pollfd){.fd = c->client_fd[i], .events = POLLIN};
    return n;
}

static void drop_client(control_t *c, int i)
{
    close(c->client_fd[i]);
    c->client_fd[i] = -1;
    c->line_length[i] = 0;
}

static void accept_clients(control_t *c)
{
    for (;;) {
        int fd = accept4(c->listen_fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        int slot = 0;
        while (slot < CONTROL_CLIENTS && c->client_fd[slot] >= 0)
            slot++;
        if (slot == CONTROL_CLIENTS) {
            static const char busy[] = "err too many control connections\n";
            (void)!write(fd, busy, sizeof busy - 1);
            close(fd);
            continue;
        }
        c->client_fd[slot] = fd;
        c->line_length[slot] = 0;
    }
}

static void answer_lines(control_t *c, int i)
{
    char *buffer = c->line[i];
    char *newline;
    while ((newline = memchr(buffer, '\n', c->line_length[i]))) {
        *newline = 0;
        char reply[2048];
        control_execute(c, buffer, reply, sizeof reply - 1);
        size_t n = strlen(reply);
        reply[n++] = '\n';
        /* Replies are short and the client waits for each one: a blocking write is fine. */
        fcntl(c->client_fd[i], F_SETFL, 0);
        (void)!write(c->client_fd[i], reply, n);
        fcntl(c->client_fd[i], F_SETFL, O_NONBLOCK);
        size_t used = (size_t)(newline - buffer) + 1;
        memmove(buffer, newline + 1, c->line_length[i] - used);
        c->line_length[i] -= used;
    }
    if (c->line_length[i] == CONTROL_LINE) {
        static const char too_long[] = "err line too long\n";
        (void)!write(c->client_fd[i], too_long, sizeof too_long - 1);
        c->line_length[i] = 0;
    }
}

void control_service(control_t *c)
{
    accept_clients(c);
    for (int i = 0; i < CONTROL_CLIENTS; i++) {
        if (c->client_fd[i] < 0)
            continue;
        ssize_t got = read(c->client_fd[i], c->line[i] + c->line_length[i],
                           CONTROL_LINE - c->line_length[i]);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
            drop_client(c, i);
            continue;
        }
        if (got > 0) {
            c->line_length[i] += (size_t)got;
            answer_lines(c, i);
        }
    }
}

void control_close(control_t *c)
{
    for (int i = 0; i < CONTROL_CLIENTS; i++)
        if (c->client_fd[i] >= 0)
            drop_client(c, i);
    close(c->listen_fd);
}
