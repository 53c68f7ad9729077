// SPDX-License-Identifier: MIT
// Legal move generation for Russian draughts (compulsory captures, flying kings, Turkish
// strike, promotion in mid-capture) and perft.
#ifndef MOVEGEN_H_INCLUDED
#define MOVEGEN_H_INCLUDED

#include "types.h"

// Fills list with every legal move: the captures if any exist, otherwise the quiet moves.
// Capture routes that give the same position are one move. Returns the count.
int movegen_all(const Board *b, MoveList *list);

// As movegen_all, but lists every capture route separately (for reading move text that may
// name any route of a move). Routes beyond MAX_MOVES are dropped.
int movegen_routes(const Board *b, MoveList *list);

// True when the side to move has a capture (and so must capture).
bool movegen_has_capture(const Board *b);

// True when the side not to move would have a capture if it were its turn.
bool movegen_opponent_has_capture(const Board *b);

// Number of legal moves, without building quiet moves (bulk counting).
int movegen_count(const Board *b);

// True when m is one of the legal moves of b. Debug builds check the TT move and every PV
// move with it; the notation fuzzer checks parsed moves.
bool movegen_is_legal(const Board *b, const Move *m);

// Perft: positions after exactly depth plies. bulk counts the last ply without playing it.
uint64_t movegen_perft(const Board *b, int depth, bool bulk);

#endif
