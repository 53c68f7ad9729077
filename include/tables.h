// SPDX-License-Identifier: MIT
// Read-only tables: square <-> bit maps, coordinates and Zobrist keys, built once by tables_init().
#ifndef TABLES_H_INCLUDED
#define TABLES_H_INCLUDED

#include "types.h"

extern Bitboard g_square_bb[SQUARE_COUNT]; // square -> its single bit
extern int8_t g_bit_square[64];            // bit -> square, or -1 for ghosts and unused bits
extern Key g_zobrist[2][2][BIT_COUNT];     // [side][is_king][bit]
extern Key g_zobrist_side;                 // xored in when Black is to move

// Builds every table; idempotent and thread-safe after the first call returns.
void tables_init(void);

// File (0..7, a..h) and rank (0..7, 1..8) of a square.
int tables_file(Square s);
int tables_rank(Square s);

// The square at file x and rank y, or -1 if it is not a dark square of the board.
Square tables_square_at(int x, int y);

#endif
