// SPDX-License-Identifier: MIT
// The position: pieces of each side, kings, side to move and Zobrist key; copy-make moves.
#ifndef BOARD_H_INCLUDED
#define BOARD_H_INCLUDED

#include "move.h"
#include "types.h"

struct Board {
    Bitboard pieces[2]; // every piece of each side, men and kings (padded layout)
    Bitboard kings;     // the kings of both sides
    Key key;            // Zobrist key of pieces and side to move
    Side side;          // side to move
};

struct MoveList {
    int count;
    Move moves[MAX_MOVES];
};

// Sets the standard start position (W:W21-32:B1-12).
void board_start(Board *b);

// Sets an empty board with the given side to move (used by parsers before filling it).
void board_clear(Board *b, Side side);

// Plays a legal move in place; the key is updated incrementally.
void board_play(Board *b, const Move *m);

// The key b would have after m, without playing it (to prefetch the TT early).
Key board_key_after(const Board *b, const Move *m);

// As board_play, but leaves the key stale: for perft, which never reads it.
void board_play_unkeyed(Board *b, const Move *m);

// Zobrist key computed from scratch.
Key board_compute_key(const Board *b);

// True when the internal invariants hold (disjoint sides, kings on pieces, no man on its
// promotion rank, key consistent). Used in asserts and tests.
bool board_is_ok(const Board *b);

// The same position seen from the other side: board rotated 180 degrees, colours swapped.
void board_mirror(const Board *b, Board *out);

// Piece on a square: 0 empty, 1 white man, 2 black man, 3 white king, 4 black king.
int board_piece_at(const Board *b, Square s);

bool board_equal(const Board *a, const Board *b);

// The position whose pieces are given as square masks (bit s = numeric square s, so bit 0 is
// square 1). False, leaving b untouched, when they overlap, a king is on no piece, or a man
// stands on its promotion rank.
bool board_set_squares(Board *b, uint32_t white, uint32_t black, uint32_t kings, Side side);

// The square masks of b (the inverse of board_set_squares).
void board_squares(const Board *b, uint32_t *white, uint32_t *black, uint32_t *kings);

#endif
