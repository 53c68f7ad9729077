// SPDX-License-Identifier: MIT
// The training record that damka-datagen writes and damka-train reads (16 bytes,
// little-endian):
//   u32 white pieces, u32 black pieces, u32 kings: bit s = numeric square s + 1 (bit 0 = 1, b8)
//   u8  side to move (0 White, 1 Black)
//   i8  result for the side to move: 1 win, 0 draw, -1 loss
//   i16 search score for the side to move, centi-men (clamped to +-3000; wins are +-3000)
#ifndef RECORD_H_INCLUDED
#define RECORD_H_INCLUDED

#include <stdint.h>

#include "board.h"

enum { RECORD_BYTES = 16, RECORD_SCORE_CLAMP = 3000 };

void record_encode(const Board *b, int result, int score, uint8_t *r);

// False when the record is not a position (overlapping pieces, a man on its last rank, a
// result or side out of range): a damaged file.
bool record_decode(const uint8_t *r, Board *b, int *result, int *score);

#endif
