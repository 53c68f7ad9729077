// SPDX-License-Identifier: MIT
// Fixed-width types, sides, squares, scores and limits shared by every module.
#ifndef TYPES_H_INCLUDED
#define TYPES_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint64_t Key;
typedef int32_t Score;
typedef int32_t Depth;

// A playable square in numeric order: 0 = square 1 (b8) ... 31 = square 32 (g1).
typedef int Square;

typedef enum Side { SIDE_WHITE = 0, SIDE_BLACK = 1 } Side;

enum {
    SQUARE_COUNT = 32,
    BIT_COUNT = 36,  // padded layout: 32 squares and 4 ghost bits
    MAX_PATH = 12,   // landings of one capture: one per taken piece, at most 12
    MAX_MOVES = 256, // more than any legal position can have
    MAX_PLY = 128,   // deepest search stack
    MAX_GAME_PLIES = 4096
};

typedef struct Board Board;
typedef struct Move Move;
typedef struct MoveList MoveList;

static inline Side side_flip(Side s) { return (Side)(s ^ 1); }

#endif
