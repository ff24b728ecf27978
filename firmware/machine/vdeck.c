#include "vdeck.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct alias {
    const char *text;
    char canonical;
};

/* The same aliases as scanner/cards.py: input is forgiving, output canonical. */
static const struct alias RANKS[] = {
    {"A", 'A'}, {"K", 'K'}, {"Q", 'Q'}, {"J", 'J'}, {"T", 'T'}, {"10", 'T'}, {"1", 'A'},
    {"9", '9'}, {"8", '8'}, {"7", '7'}, {"6", '6'}, {"5", '5'}, {"4", '4'}, {"3", '3'},
    {"2", '2'},
};
static const struct alias SUITS[] = {
    {"S", 'S'}, {"H", 'H'}, {"D", 'D'}, {"C", 'C'},
    {"\xE2\x99\xA0", 'S'}, {"\xE2\x99\xA5", 'H'}, {"\xE2\x99\xA6", 'D'}, {"\xE2\x99\xA3", 'C'},
    {"\xE2\x99\xA4", 'S'}, {"\xE2\x99\xA1", 'H'}, {"\xE2\x99\xA2", 'D'}, {"\xE2\x99\xA7", 'C'},
};

static char lookup(const struct alias *table, size_t n, const char *text, size_t length)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(table[i].text) == length && strncmp(table[i].text, text, length) == 0)
            return table[i].canonical;
    return 0;
}

int vcard_parse(const char *token, char out[3])
{
    char upper[16];
    size_t length = strlen(token);
    if (length < 2 || length >= sizeof upper)
        return 0;
    for (size_t i = 0; i <= length; i++)
        upper[i] = (char)toupper((unsigned char)token[i]);
    /* The suit is the last character: one byte, or a three-byte UTF-8 symbol. */
    size_t suit_length = ((unsigned char)upper[length - 1] >= 0x80 && length >= 4) ? 3 : 1;
    char suit = lookup(SUITS, sizeof SUITS / sizeof *SUITS, upper + length - suit_length,
                       suit_length);
    char rank = lookup(RANKS, sizeof RANKS / sizeof *RANKS, upper, length - suit_length);
    if (!suit || !rank)
        return 0;
    out[0] = rank;
    out[1] = suit;
    out[2] = 0;
    return 1;
}

static int parse_line(char *line, vcard_t *card, char *why, size_t why_size)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    char *words[3];
    int n = 0;
    for (char *w = strtok(line, " \t\r\n"); w; w = strtok(0, " \t\r\n"))
        if (n < 3)
            words[n++] = w;
        else
            n = 4;
    if (n == 0)
        return 0;
    if (n > 2 || (n == 2 && strcasecmp(words[1], "up") && strcasecmp(words[1], "down"))) {
        snprintf(why, why_size, "not a card: expected a card, optionally followed by 'down' "
                 "(e.g. 'AS' or 'AS down')");
        return -1;
    }
    /* Never quote the line: the control channel loads any path it is sent, and its error
       must not show a stranger what someone else's file holds. */
    if (!vcard_parse(words[0], card->text)) {
        snprintf(why, why_size, "not a card: expected a card, optionally followed by 'down' "
                 "(e.g. 'AS' or 'AS down')");
        return -1;
    }
    card->down = n == 2 && strcasecmp(words[1], "down") == 0;
    return 1;
}

int vdeck_load(const char *path, vcard_t *cards, int capacity, char *error, size_t error_size)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        snprintf(error, error_size, "cannot read deck file '%s': %s", path, strerror(errno));
        return -1;
    }
    char line[256];
    char why[160];
    int count = 0;
    for (int number = 1; fgets(line, sizeof line, file); number++) {
        if (number > VDECK_MAX_LINES) {
            /* /dev/zero and the like never end: give up long before a deck would. */
            snprintf(error, error_size, "%s: over %d lines: not a deck", path, VDECK_MAX_LINES);
            fclose(file);
            return -1;
        }
        vcard_t card;
        int parsed = parse_line(line, &card, why, sizeof why);
        if (parsed == 0)
            continue;
        if (parsed < 0 || count == capacity) {
            snprintf(error, error_size, "%s, line %d: %s", path, number,
                     parsed < 0 ? why : "more cards than the hopper holds");
            fclose(file);
            return -1;
        }
        cards[count++] = card;
    }
    fclose(file);
    return count;
}
