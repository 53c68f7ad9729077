// SPDX-License-Identifier: MIT
// Bitboards on a padded 36-bit layout where each diagonal step is one constant shift.
//
// A dark square at file x (0..7, a..h) and rank y (0..7, 1..8) sits at bit (x + 9*y) / 2.
// Bits 4, 13, 22 and 31 are ghosts: a step off the left or right edge lands on a ghost or
// outside bits 0..35, so masking with BB_VALID removes it. The four diagonal steps are
// +5 (up-right), +4 (up-left), -4 (down-right) and -5 (down-left).
#ifndef BITBOARD_H_INCLUDED
#define BITBOARD_H_INCLUDED

#include "types.h"

#define BB_VALID 0xF7FBFDFEFULL // bits 0..35 without the ghost bits 4, 13, 22, 31
#define BB_RANK1 0x000000000FULL
#define BB_RANK8 0xF00000000ULL

enum { DIR_UR = 0, DIR_UL = 1, DIR_DR = 2, DIR_DL = 3, DIR_COUNT = 4 };

// Shift of each direction; the forward directions of White are 0,1 and of Black 2,3.
static const int DIR_SHIFT[DIR_COUNT] = {5, 4, -4, -5};

static inline int dir_reverse(int d) { return 3 - d; }

static inline Bitboard bb_shift(Bitboard b, int d)
{
    int s = DIR_SHIFT[d];
    return (s > 0 ? b << s : b >> -s) & BB_VALID;
}

static inline int bb_count(Bitboard b) { return __builtin_popcountll(b); }
static inline int bb_lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline Bitboard bb_pop(Bitboard b) { return b & (b - 1); }

// Squares king rays fill from `from` along d over empty squares (not including from). Rays
// of different kings along one direction never overlap, so one fill serves several kings.
static inline Bitboard bb_ray_fill(Bitboard from, int d, Bitboard empty)
{
    Bitboard acc = 0;
    for (Bitboard r = bb_shift(from, d) & empty; r; r = bb_shift(r, d) & empty)
        acc |= r;
    return acc;
}

#endif
