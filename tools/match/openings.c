// SPDX-License-Identifier: MIT
// Owns the opening-file reader: FEN per line, FEN plus moves, or moves from the start.
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "notation.h"

// A move-number token ("1.", "12...") or a result token, skipped in move lists.
static bool is_filler(const char *t)
{
    size_t n = strlen(t);
    if (strcmp(t, "*") == 0 || strcmp(t, "1-0") == 0 || strcmp(t, "0-1") == 0 ||
        strcmp(t, "1/2-1/2") == 0 || strcmp(t, "2-0") == 0 || strcmp(t, "0-2") == 0 ||
        strcmp(t, "1-1") == 0)
        return true;
    return n >= 2 && t[n - 1] == '.' && strspn(t, "0123456789.") == n;
}

static bool parse_line(char *line, Opening *o, char *err, size_t errlen)
{
    char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
    memset(o, 0, sizeof *o);
    board_start(&o->start);
    if (tok && (tok[0] == 'W' || tok[0] == 'B') && tok[1] == ':') {
        if (!notation_parse_fen(tok, &o->start, err, errlen))
            return false;
        tok = strtok_r(NULL, " \t\r\n", &save);
    }
    notation_fen(&o->start, o->fen, sizeof o->fen);
    Board b = o->start;
    for (; tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (strcmp(tok, "moves") == 0 || is_filler(tok))
            continue;
        if (o->nmoves == (int)(sizeof o->moves / sizeof o->moves[0])) {
            snprintf(err, errlen, "more than %d opening moves", o->nmoves);
            return false;
        }
        char why[128];
        if (!notation_parse_move(&b, tok, MOVE_FMT_ALG, &o->moves[o->nmoves], why, sizeof why)) {
            snprintf(err, errlen, "%s", why);
            return false;
        }
        board_play(&b, &o->moves[o->nmoves++]);
    }
    return true;
}

int openings_read(FILE *f, Opening **out, char *err, size_t errlen)
{
    char line[4096];
    int n = 0, cap = 0, lineno = 0;
    Opening *list = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            Opening *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                free(list);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            list = grown;
        }
        char why[160];
        if (!parse_line(line, &list[n], why, sizeof why)) {
            snprintf(err, errlen, "line %d: %s", lineno, why);
            free(list);
            return -1;
        }
        n++;
    }
    *out = list;
    return n;
}
