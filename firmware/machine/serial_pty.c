#include "serial_pty.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

int serial_pty_open(serial_pty_t *p)
{
    p->master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (p->master < 0 || grantpt(p->master) < 0 || unlockpt(p->master) < 0)
        return -1;
    const char *name = ptsname(p->master);
    if (!name)
        return -1;
    snprintf(p->path, sizeof p->path, "%s", name);
    p->keeper = open(p->path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (p->keeper < 0)
        return -1;
    /* Raw bytes both ways: no echo, no line editing, no CR/LF translation. */
    struct termios tio;
    if (tcgetattr(p->keeper, &tio) < 0)
        return -1;
    cfmakeraw(&tio);
    cfsetspeed(&tio, B115200);
    return tcsetattr(p->keeper, TCSANOW, &tio);
}

void serial_pty_close(serial_pty_t *p)
{
    close(p->keeper);
    close(p->master);
}
