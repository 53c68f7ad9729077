// SPDX-License-Identifier: MIT
// Owns move ordering: scores for the TT move, captures, killers and history, and their updates.
#include "movepick.h"

#include <assert.h>
#include <string.h>

#include "bitboard.h"
#include "movegen.h"

enum {
    CAPTURE_PER_PIECE = 1024, // a capture of more pieces first
    PROMOTION_BONUS = 512,    // among equal captures, one that promotes
};

void movepick_clear(MoveHistory *h) { memset(h, 0, sizeof *h); }

void movepick_score(const MoveHistory *h, const Board *b, const MoveList *list, uint16_t tt_move,
                    const Move killers[2], int32_t *scores)
{
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        int32_t s;
        if (tt_move && move_code(m) == tt_move) {
            // The TT only hints: its move counts because it matched a generated move.
            assert(movegen_is_legal(b, m));
            s = MOVEPICK_TT;
        } else if (m->captured) {
            s = MOVEPICK_CAPTURE + CAPTURE_PER_PIECE * bb_count(m->captured) +
                ((m->flags & MOVE_PROMOTES) ? PROMOTION_BONUS : 0);
        } else if (move_same(m, &killers[0])) {
            s = MOVEPICK_KILLER + 1;
        } else if (move_same(m, &killers[1])) {
            s = MOVEPICK_KILLER;
        } else {
            s = movepick_history(h, b, m) + ((m->flags & MOVE_PROMOTES) ? MOVEPICK_HISTORY_MAX : 0);
        }
        scores[i] = s;
    }
}

void movepick_next(MoveList *list, int32_t *scores, int i)
{
    int best = i;
    for (int j = i + 1; j < list->count; j++)
        if (scores[j] > scores[best])
            best = j;
    if (best != i) {
        Move tm = list->moves[i];
        list->moves[i] = list->moves[best];
        list->moves[best] = tm;
        int32_t ts = scores[i];
        scores[i] = scores[best];
        scores[best] = ts;
    }
}

void movepick_update(MoveHistory *h, const Board *b, const Move *m, Move killers[2], Depth depth,
                     const MoveList *list, int tried)
{
    if (!move_same(m, &killers[0])) {
        killers[1] = killers[0];
        killers[0] = *m;
    }
    int bonus = depth * depth;
    int32_t *hm = &h->history[b->side][m->from][m->to];
    *hm += bonus - *hm * bonus / MOVEPICK_HISTORY_MAX;
    // The quiet moves ordered before it fall: those searched without a cut-off and those the
    // search pruned unsearched alike (it passes the index of the cut, not a list of searched
    // moves).
    for (int i = 0; i < tried; i++) {
        const Move *o = &list->moves[i];
        if (o->captured || move_same(o, m))
            continue;
        int32_t *ho = &h->history[b->side][o->from][o->to];
        *ho -= bonus + *ho * bonus / MOVEPICK_HISTORY_MAX;
    }
}
