// SPDX-License-Identifier: MIT
// Owns text <-> Board and text <-> Move conversions (FEN, Hub strings, move notations).
#include "notation.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "board.h"
#include "movegen.h"
#include "tables.h"

enum { PIECES_PER_SIDE_MAX = 12 };

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

void notation_square(Square s, char out[3])
{
    out[0] = (char)('a' + tables_file(s));
    out[1] = (char)('1' + tables_rank(s));
    out[2] = '\0';
}

// Reads one square at *p: numeric 1..32 (or 1..32 in a1 order when a1_numbers) or algebraic
// a1..h8 on a dark square. Advances *p. Returns -1 (and leaves *p) when there is none.
static Square read_square(const char **p, bool a1_numbers)
{
    const char *s = *p;
    if (s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8') {
        Square sq = tables_square_at(s[0] - 'a', s[1] - '1');
        if (sq >= 0)
            *p = s + 2;
        return sq;
    }
    if (!isdigit((unsigned char)s[0]))
        return -1;
    int n = s[0] - '0', len = 1;
    if (isdigit((unsigned char)s[1])) {
        n = n * 10 + (s[1] - '0');
        len = 2;
    }
    if (isdigit((unsigned char)s[len]) || n < 1 || n > 32)
        return -1;
    *p = s + len;
    if (!a1_numbers)
        return n - 1;
    int y = (n - 1) / 4; // a1 numbering: 1=a1 2=c1 3=e1 4=g1 5=b2 ... 32=h8
    return tables_square_at(2 * ((n - 1) % 4) + (y % 2), y);
}

static bool parse_side(char c, Side *side)
{
    if (c == 'W' || c == 'w')
        *side = SIDE_WHITE;
    else if (c == 'B' || c == 'b')
        *side = SIDE_BLACK;
    else
        return false;
    return true;
}

// Parses one colour's list ("21-32", "K1,Ka1,c3") into b; stops at ':' or the end.
static bool parse_piece_list(const char **pp, Side side, Board *b, char *err, size_t errlen)
{
    const char *p = *pp;
    while (*p && *p != ':') {
        bool king = false;
        if (*p == 'K' || *p == 'k') {
            king = true;
            p++;
        }
        const char *at = p;
        Square lo = read_square(&p, false), hi;
        if (lo < 0)
            return fail(err, errlen, "bad square '%.8s' in FEN (want 1-32 or a dark a1-h8)", at);
        hi = lo;
        if (*p == '-') {
            p++;
            const char *at2 = p;
            if (!isdigit((unsigned char)*at) || !isdigit((unsigned char)*p) ||
                (hi = read_square(&p, false)) < lo)
                return fail(err, errlen, "bad range '%.12s' in FEN", at2 > at ? at : at2);
        }
        for (Square s = lo; s <= hi; s++) {
            Bitboard bb = g_square_bb[s];
            if ((b->pieces[0] | b->pieces[1]) & bb)
                return fail(err, errlen, "square %d given twice in FEN", s + 1);
            if (!king && (bb & (side == SIDE_WHITE ? BB_RANK8 : BB_RANK1)))
                return fail(err, errlen, "man on its promotion rank at square %d", s + 1);
            b->pieces[side] |= bb;
            if (king)
                b->kings |= bb;
        }
        if (*p == ',')
            p++;
        else if (*p && *p != ':')
            return fail(err, errlen, "unexpected '%c' in FEN piece list", *p);
    }
    *pp = p;
    return true;
}

// Accepts the optional ":H<n>" and ":F<n>" fields lidraughts writes after the pieces.
static bool parse_counters(const char *p, char *err, size_t errlen)
{
    while (*p == ':') {
        p++;
        if ((*p != 'H' && *p != 'F') || !isdigit((unsigned char)p[1]))
            return fail(err, errlen, "unexpected field ':%.8s' in FEN", p);
        p++;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return fail(err, errlen, "junk '%.8s' at end of FEN", p);
    return true;
}

bool notation_parse_fen(const char *text, Board *out, char *err, size_t errlen)
{
    char buf[FEN_MAX * 2];
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    while (n && isspace((unsigned char)*text))
        text++, n--;
    if (n == 0 || n >= sizeof buf)
        return fail(err, errlen, n ? "FEN too long" : "empty FEN");
    memcpy(buf, text, n);
    buf[n] = '\0';

    Board b;
    Side side;
    if (!parse_side(buf[0], &side) || (buf[1] != ':' && buf[1] != '\0'))
        return fail(err, errlen, "FEN must start with the side to move, W or B, then ':'");
    board_clear(&b, side);
    const char *p = buf + 1;
    bool seen[2] = {false, false};
    for (int i = 0; i < 2 && *p == ':'; i++) {
        Side colour;
        if (!parse_side(p[1], &colour))
            break; // not a colour section: maybe the :H/:F counters
        if (seen[colour])
            return fail(err, errlen, "colour %c given twice in FEN", p[1]);
        seen[colour] = true;
        p += 2;
        if (!parse_piece_list(&p, colour, &b, err, errlen))
            return false;
    }
    if (!parse_counters(p, err, errlen))
        return false;
    for (int s = 0; s < 2; s++)
        if (bb_count(b.pieces[s]) > PIECES_PER_SIDE_MAX)
            return fail(err, errlen, "more than 12 pieces for %s", s ? "black" : "white");
    b.key = board_compute_key(&b);
    *out = b;
    return true;
}

static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    if (*pos >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (w > 0)
        *pos += (size_t)w;
}

// Writes the FEN of b with numeric (1-32) or algebraic (c3) squares.
static void write_fen(const Board *b, bool algebraic, char *buf, size_t len)
{
    size_t pos = 0;
    if (len)
        buf[0] = '\0';
    append(buf, len, &pos, "%c", b->side == SIDE_WHITE ? 'W' : 'B');
    for (int side = 0; side < 2; side++) {
        append(buf, len, &pos, ":%c", side == SIDE_WHITE ? 'W' : 'B');
        bool first = true;
        for (Square s = 0; s < SQUARE_COUNT; s++) {
            if (!(b->pieces[side] & g_square_bb[s]))
                continue;
            char name[12]; // room for any int, so that -Wformat-truncation has nothing to say
            if (algebraic)
                notation_square(s, name);
            else
                snprintf(name, sizeof name, "%d", s + 1);
            append(buf, len, &pos, "%s%s%s", first ? "" : ",",
                   (b->kings & g_square_bb[s]) ? "K" : "", name);
            first = false;
        }
    }
}

void notation_fen(const Board *b, char *buf, size_t len) { write_fen(b, false, buf, len); }

void notation_fen_algebraic(const Board *b, char *buf, size_t len) { write_fen(b, true, buf, len); }

bool notation_parse_hub_pos(const char *text, Board *out, char *err, size_t errlen)
{
    if (strlen(text) != HUB_POS_LEN)
        return fail(err, errlen, "position must be %d characters", HUB_POS_LEN);
    Board b;
    Side side;
    if (!parse_side(text[0], &side) || islower((unsigned char)text[0]))
        return fail(err, errlen, "position must start with W or B");
    board_clear(&b, side);
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        char c = text[s + 1];
        Bitboard bb = g_square_bb[s];
        if (c == 'e')
            continue;
        if (c != 'w' && c != 'b' && c != 'W' && c != 'B')
            return fail(err, errlen, "bad piece '%c' at square %d", c, s + 1);
        Side colour = (c == 'w' || c == 'W') ? SIDE_WHITE : SIDE_BLACK;
        bool king = isupper((unsigned char)c);
        if (!king && (bb & (colour == SIDE_WHITE ? BB_RANK8 : BB_RANK1)))
            return fail(err, errlen, "man on its promotion rank at square %d", s + 1);
        b.pieces[colour] |= bb;
        if (king)
            b.kings |= bb;
    }
    for (int s = 0; s < 2; s++)
        if (bb_count(b.pieces[s]) > PIECES_PER_SIDE_MAX)
            return fail(err, errlen, "more than 12 pieces for %s", s ? "black" : "white");
    b.key = board_compute_key(&b);
    *out = b;
    return true;
}

void notation_hub_pos(const Board *b, char *buf, size_t len)
{
    static const char piece_char[] = "ewbWB";
    char tmp[HUB_POS_LEN + 1];
    tmp[0] = b->side == SIDE_WHITE ? 'W' : 'B';
    for (Square s = 0; s < SQUARE_COUNT; s++)
        tmp[s + 1] = piece_char[board_piece_at(b, s)];
    tmp[HUB_POS_LEN] = '\0';
    snprintf(buf, len, "%s", tmp);
}

static int hub_number(Square s, MoveFormat fmt)
{
    if (fmt != MOVE_FMT_HUB_A1)
        return s + 1;
    return tables_rank(s) * 4 + tables_file(s) / 2 + 1;
}

void notation_move(const Move *m, MoveFormat fmt, char *buf, size_t len)
{
    size_t pos = 0;
    char sq[3];
    bool capture = m->captured != 0;
    if (len)
        buf[0] = '\0';
    switch (fmt) {
    case MOVE_FMT_UCI:
    case MOVE_FMT_ALG:
        notation_square(m->from, sq);
        append(buf, len, &pos, "%s", sq);
        for (int i = 0; i < m->npath; i++) {
            notation_square(m->path[i], sq);
            append(buf, len, &pos, "%s%s", fmt == MOVE_FMT_UCI ? "" : capture ? ":" : "-", sq);
        }
        break;
    case MOVE_FMT_NUMERIC:
        append(buf, len, &pos, "%d", m->from + 1);
        for (int i = 0; i < m->npath; i++)
            append(buf, len, &pos, "%c%d", capture ? 'x' : '-', m->path[i] + 1);
        break;
    case MOVE_FMT_HUB:
    case MOVE_FMT_HUB_A1:
        append(buf, len, &pos, "%d%c%d", hub_number(m->from, fmt), capture ? 'x' : '-',
               hub_number(m->to, fmt));
        for (Square s = 0; s < SQUARE_COUNT; s++) // captured squares in numeric order
            if (m->captured & g_square_bb[s])
                append(buf, len, &pos, "x%d", hub_number(s, fmt));
        break;
    }
}

// Splits move text into squares. Separators '-', 'x', 'X', ':' may stand between squares;
// algebraic squares may also follow each other directly (UCI style).
static int tokenize_move(const char *text, bool a1_numbers, Square *sq, int max)
{
    const char *p = text;
    int n = 0;
    while (*p) {
        if (n > 0 && (*p == '-' || *p == 'x' || *p == 'X' || *p == ':')) {
            p++;
            if (!*p)
                return -1;
        }
        if (n == max)
            return -1;
        Square s = read_square(&p, a1_numbers);
        if (s < 0)
            return -1;
        sq[n++] = s;
    }
    return n;
}

// True when the squares name m's route exactly: every landing in order, or in the Hub forms
// the destination and the whole set of captured squares.
static bool route_is(const Move *m, const Square *sq, int n, bool hub)
{
    if (m->from != sq[0])
        return false;
    if (hub) {
        Bitboard cap = 0;
        for (int i = 2; i < n; i++)
            cap |= g_square_bb[sq[i]];
        return m->to == sq[1] && cap == m->captured && bb_count(cap) == n - 2;
    }
    if (m->npath != n - 1)
        return false;
    for (int i = 1; i < n; i++)
        if (m->path[i - 1] != sq[i])
            return false;
    return true;
}

// True when the squares fit m at all: its exact route, or only its origin and destination.
static bool route_fits(const Move *m, const Square *sq, int n, bool hub)
{
    return route_is(m, sq, n, hub) || (n == 2 && m->from == sq[0] && m->to == sq[1]);
}

// The one move among routes that the squares name (exact or not), NULL when none does;
// *several is set when two different moves fit.
static const Move *find_route(const MoveList *routes, const Square *sq, int n, bool hub, bool exact,
                              bool *several)
{
    const Move *found = NULL;
    *several = false;
    for (int i = 0; i < routes->count; i++) {
        const Move *m = &routes->moves[i];
        if (!(exact ? route_is(m, sq, n, hub) : route_fits(m, sq, n, hub)))
            continue;
        if (found && !move_same_position(found, m))
            *several = true;
        found = m;
    }
    return found;
}

bool notation_parse_move(const Board *b, const char *text, MoveFormat fmt, Move *out, char *err,
                         size_t errlen)
{
    Square sq[MAX_PATH + 2];
    bool hub = fmt == MOVE_FMT_HUB || fmt == MOVE_FMT_HUB_A1;
    int n = tokenize_move(text, fmt == MOVE_FMT_HUB_A1, sq, MAX_PATH + 2);
    if (n < 2)
        return fail(err, errlen, "malformed move '%.20s'", text);

    // Every route is listed so that any route of a capture names its move. A text that spells
    // a whole route names that route's move even when a longer capture shares its two ends
    // (f6h4 beside f6d4b6d8h4); only a text that fits several moves and spells none of them
    // exactly is ambiguous.
    MoveList routes;
    movegen_routes(b, &routes);
    bool several;
    const Move *found = find_route(&routes, sq, n, hub, true, &several);
    if (!found)
        found = find_route(&routes, sq, n, hub, false, &several);
    if (several)
        return fail(err, errlen, "ambiguous move '%.20s': give the full route", text);
    if (!found)
        return fail(err, errlen, "illegal move '%.20s'", text);

    // Return the generator's canonical form of the move (its first route).
    MoveList list;
    movegen_all(b, &list);
    for (int i = 0; i < list.count; i++)
        if (move_same_position(&list.moves[i], found)) {
            *out = list.moves[i];
            return true;
        }
    return fail(err, errlen, "illegal move '%.20s'", text);
}

int notation_taken_in_order(const Move *m, Square out[MAX_PATH])
{
    int n = 0;
    Square at = m->from;
    for (int i = 0; m->captured && i < m->npath; i++) {
        int x = tables_file(at), y = tables_rank(at);
        int tx = tables_file(m->path[i]), ty = tables_rank(m->path[i]);
        int dx = tx > x ? 1 : -1, dy = ty > y ? 1 : -1;
        for (x += dx, y += dy; x != tx; x += dx, y += dy) {
            Square s = tables_square_at(x, y);
            if (s >= 0 && (g_square_bb[s] & m->captured)) {
                assert(n < MAX_PATH);
                out[n++] = s;
                break;
            }
        }
        at = m->path[i];
    }
    return n;
}

Square notation_square_of(const char *name)
{
    const char *p = name;
    Square s = read_square(&p, false);
    return s >= 0 && *p == '\0' && isalpha((unsigned char)name[0]) ? s : -1;
}

void notation_diagram(const Board *b, char *buf, size_t len)
{
    static const char PIECE[] = ".wbWB";
    size_t n = 0;
    buf[0] = '\0';
    for (int y = 7; y >= 0 && n < len; y--) {
        n += (size_t)snprintf(buf + n, len - n, " %d ", y + 1);
        for (int x = 0; x < 8 && n < len; x++) {
            Square s = tables_square_at(x, y);
            n += (size_t)snprintf(buf + n, len - n, "%c ",
                                  s < 0 ? ' ' : PIECE[board_piece_at(b, s)]);
        }
        if (n < len)
            n += (size_t)snprintf(buf + n, len - n, "\n");
    }
    if (n < len)
        snprintf(buf + n, len - n, "   a b c d e f g h\n");
}
