// SPDX-License-Identifier: MIT
// Move ordering: the TT move, captures by size, killers, then history of quiet moves.
#ifndef MOVEPICK_H_INCLUDED
#define MOVEPICK_H_INCLUDED

#include "board.h"
#include "types.h"

enum {
    MOVEPICK_HISTORY_MAX = 1 << 14, // history scores stay within +/- this (gravity formula)
    MOVEPICK_TT = 1 << 30,          // ordering scores: the TT move first,
    MOVEPICK_CAPTURE = 1 << 28,     // then captures (more pieces first),
    MOVEPICK_KILLER = 1 << 27,      // then the two killers, then quiet moves by history
};

// History of quiet moves of one search thread (the killers live on the search's stack).
typedef struct MoveHistory {
    int32_t history[2][SQUARE_COUNT][SQUARE_COUNT];
} MoveHistory;

// Forgets the history (new game).
void movepick_clear(MoveHistory *h);

// Ordering scores of every move of list; tt_move is a move code (0 = none), killers the two
// killers of this ply.
void movepick_score(const MoveHistory *h, const Board *b, const MoveList *list, uint16_t tt_move,
                    const Move killers[2], int32_t *scores);

// Brings the best-scored move of list[i..] to position i.
void movepick_next(MoveList *list, int32_t *scores, int i);

// A quiet move m caused a cut-off at depth after `tried` moves of list: it becomes a killer
// of this ply, its history rises and the quiet moves ordered before it fall.
void movepick_update(MoveHistory *h, const Board *b, const Move *m, Move killers[2], Depth depth,
                     const MoveList *list, int tried);

// The history score of a quiet move of the side to move of b.
static inline int32_t movepick_history(const MoveHistory *h, const Board *b, const Move *m)
{
    return h->history[b->side][m->from][m->to];
}

#endif
