/* A pseudo-terminal standing in for the shoe's USB serial port. */
#ifndef SERIAL_PTY_H
#define SERIAL_PTY_H

#include <stddef.h>

typedef struct {
    int master; /* our end, non-blocking */
    int keeper; /* the slave held open by us, so the master never reads EIO between clients */
    char path[64];
} serial_pty_t;

/* Returns 0, or -1 with errno set. */
int serial_pty_open(serial_pty_t *p);
void serial_pty_close(serial_pty_t *p);

#endif
