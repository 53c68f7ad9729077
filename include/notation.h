// SPDX-License-Identifier: MIT
// Text forms of positions and moves: FEN (numeric or algebraic), Hub position strings, and
// every move notation of protocol.md. Parsers never abort: they return false and say why.
#ifndef NOTATION_H_INCLUDED
#define NOTATION_H_INCLUDED

#include <stddef.h>

#include "types.h"

typedef enum MoveFormat {
    MOVE_FMT_UCI,     // c3d4, c3e5g7
    MOVE_FMT_ALG,     // c3-d4, c3:e5:g7
    MOVE_FMT_NUMERIC, // 22-18, 22x15x8
    MOVE_FMT_HUB,     // 22-18, 22x8x15 (from, to, captured squares)
    MOVE_FMT_HUB_A1   // as MOVE_FMT_HUB with squares numbered from a1 (1=a1 ... 32=h8)
} MoveFormat;

enum { FEN_MAX = 160, MOVE_TEXT_MAX = 64, HUB_POS_LEN = 33, NOTATION_DIAGRAM_MAX = 256 };

// Parses a FEN such as "W:W21-32:B1-12" or "B:WKa1,c3:Bd6" (optional ":H<n>:F<n>" suffix).
// On error returns false, writes a one-line reason to err, and leaves out untouched.
bool notation_parse_fen(const char *text, Board *out, char *err, size_t errlen);

// Writes the canonical numeric FEN, e.g. "W:W21,22,...,32:B1,...,12" (kings with K).
void notation_fen(const Board *b, char *buf, size_t len);

// The same with algebraic squares, "B:Wc3,e3,Ka1:Bb8,a7,Kc5": the form every PDN reader takes
// for GameType 25 (numeric FEN squares are read from a1 by some).
void notation_fen_algebraic(const Board *b, char *buf, size_t len);

// Parses a Hub position string: side W/B then 32 of w b W B e (square 1 first).
bool notation_parse_hub_pos(const char *text, Board *out, char *err, size_t errlen);

// Writes the 33-character Hub position string.
void notation_hub_pos(const Board *b, char *buf, size_t len);

// Writes a move in the given format.
void notation_move(const Move *m, MoveFormat fmt, char *buf, size_t len);

// Finds the legal move of b named by text: any input form of protocol.md (full route, or from
// and to only when just one legal move fits). The Hub formats read from-to-captured instead.
// Returns false with a reason ("illegal", "ambiguous", "malformed") in err.
bool notation_parse_move(const Board *b, const char *text, MoveFormat fmt, Move *out, char *err,
                         size_t errlen);

// The board as text for people: eight ranks (8 first, '.' empty, w b men, W B kings) and a
// line of file letters, each ending in a newline.
void notation_diagram(const Board *b, char *buf, size_t len);

// The squares m takes, in the order it takes them (none for a quiet move); returns the count.
// A capture's route fixes it: between two landings lies exactly one taken piece.
int notation_taken_in_order(const Move *m, Square out[MAX_PATH]);

// The square named by algebraic text such as "c3" (two characters, a dark square), or -1.
Square notation_square_of(const char *name);

// Algebraic name of a square ("c3").
void notation_square(Square s, char out[3]);

#endif
