/* Virtual deck files: one card per line, top card first; "AS down" is a face-down card;
 * blank lines and # comments are ignored. The same format as scanner/shoe/virtual_deck.py. */
#ifndef VDECK_H
#define VDECK_H

#include <stddef.h>
#include <stdint.h>

#define VDECK_MAX_CARDS 160
/* Lines read before a file is judged not to be a deck (a read of 255 bytes counts as one). */
#define VDECK_MAX_LINES 4096

typedef struct {
    char text[3]; /* canonical rank + suit, e.g. "TH" */
    uint8_t down; /* lies face down */
} vcard_t;

/* Canonical text of one card token ("10h", "T♥", "as"); returns 0 if it is not a card. */
int vcard_parse(const char *token, char out[3]);

/* Load a deck file. Returns the number of cards, or -1 with a message naming the file and
 * line in error[error_size]. */
int vdeck_load(const char *path, vcard_t *cards, int capacity, char *error, size_t error_size);

#endif
