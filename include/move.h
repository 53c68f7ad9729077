// SPDX-License-Identifier: MIT
// A move: its squares, route and captured pieces, and its identity: when two moves are the
// same, and the 16-bit code the transposition table keeps of it. The one place every module
// asks "is this the same move".
#ifndef MOVE_H_INCLUDED
#define MOVE_H_INCLUDED

#include "types.h"

enum { MOVE_PROMOTES = 1 };

// A legal move. Squares are numeric-order squares (0 = square 1). The path lists every landing
// square in order (a quiet move has one), so notation can print the route of a capture.
struct Move {
    Bitboard captured; // captured pieces (padded layout), empty for a quiet move
    uint8_t from;
    uint8_t to;
    uint8_t flags; // MOVE_PROMOTES when a man ends the move as a king
    uint8_t npath; // landings in path
    uint8_t path[MAX_PATH];
};

// The same move for the search: origin, destination and captured pieces (its route aside).
static inline bool move_same(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured;
}

// The same resulting position: move_same, and the piece ends as the same kind (a man that
// crossed the last rank in mid-capture ends as a king on one route and not on another).
static inline bool move_same_position(const Move *a, const Move *b)
{
    return move_same(a, b) && a->flags == b->flags;
}

// The 16-bit code the TT keeps (never 0): 0x8000 marks a move, from and to take 5 bits each,
// and 5 bits of a hash of the captured pieces tell captures with the same ends apart.
static inline uint16_t move_code(const Move *m)
{
    uint64_t h = (m->captured * 0x9E3779B97F4A7C15ULL) >> 59;
    return (uint16_t)(0x8000u | m->from | (unsigned)m->to << 5 | (unsigned)h << 10);
}

#endif
