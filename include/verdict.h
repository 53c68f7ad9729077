// SPDX-License-Identifier: MIT
// What the endgame databases' value of a position means in a game, and the score the search
// gives it: the one place the databases' two models meet the draw rules of 7.2.
//
// A value (egdb.h) is a result with a counter budget F: the win or loss holds while the
// counter is at most F. The strict model counts plies since the last capture or promotion (the
// counter of 7.2.4 and 7.2.6-7.2.8): with kings alone, or under 7.2.4/7.2.8, that is the
// rules, and elsewhere its wins are wins. The loose model (balances with men) also resets the
// counter at a man's step, as 7.2.5 does, and leaves 7.2.6 out: its draws are draws.
//
// Under the game's counters: rules 7.2.4 and 7.2.8 count plies since the last capture or
// promotion, as the budget does. Elsewhere 7.2.5 counts plies since a man's step or capture
// against the same 30, and 7.2.6 (kings on both sides) plies since a capture or promotion
// against 60 or 120: a win that resets the counters within 30 - F plies meets both while
// reversible <= F and balance - 30 (or - 90) <= F. Past that, a value is a draw with kings
// alone or under 7.2.4/7.2.8 (there the budget is exact), and says nothing with men on the
// board (the search goes on), unless the loose table calls it a draw. Rule 7.2.7 counts from
// when a lone king came to the long diagonal, which a position does not say: the search takes
// only the databases' draws there (that rule only adds draws) and searches their wins.
#ifndef VERDICT_H_INCLUDED
#define VERDICT_H_INCLUDED

#include "egdb.h"
#include "rules.h"
#include "types.h"

typedef enum Verdict {
    VERDICT_DRAW,
    VERDICT_WIN,
    VERDICT_LOSS,
    VERDICT_NOTHING, // a position of the databases whose result they cannot settle
    VERDICT_UNKNOWN, // not in the databases
} Verdict;

enum {
    // The search's score of a win the databases know, for the side that wins:
    // SCORE_EGDB + SCORE_EGDB_PROGRESS * progress + (budget left) - ply, where progress
    // (0..VERDICT_PROGRESS_MAX) counts the loser's lost pieces twice and the winner's men once
    // and kings twice: the search takes a winning conversion at once, never gives a piece away
    // for nothing, and in between keeps the most counter budget, so the win comes within the
    // 7.2 counters. Below every win the search finds (search.h, SCORE_WIN_MIN).
    SCORE_EGDB = 30000,
    SCORE_EGDB_PROGRESS = 32, // more than any budget (EGDB_F_ANY)
    VERDICT_PROGRESS_MAX = 2 * (EGDB_PIECES_MAX - 2) + 2 * (EGDB_PIECES_MAX - 1),
    SCORE_EGDB_MIN = SCORE_EGDB - MAX_PLY,
    SCORE_EGDB_MAX = SCORE_EGDB + SCORE_EGDB_PROGRESS * (VERDICT_PROGRESS_MAX + 1),
};

// What strict value v of b says under counters c; loose is its loose value (-1: no loose
// table). A strict win holds while reversible <= F and balance - 30 (or - 90) <= F; a loose
// draw, or a loose value past its budget (reversible, or balance under 7.2.4/7.2.8), is a draw;
// with kings alone a strict value past its budget is a draw. Anything else says nothing,
// except with no loose table, where a strict draw is taken as it is. *left gets the budget
// left of a win or loss.
Verdict verdict_of_value(const Board *b, int v, int loose, DrawCounters c, int *left);

// What the databases say of b under counters c, probing the loose table only when the strict
// one does not settle it; VERDICT_UNKNOWN when b is not in them.
Verdict verdict_judge(const Egdb *db, const Board *b, DrawCounters c, EgdbCache *cache, int *left);

// True for material under 7.2.4 or 7.2.8 (a lone king against three kings or more, or against
// at most two pieces with a king): their counters run from the last capture or promotion.
bool verdict_balance_rules(const Board *b);

// The search's score at ply of a position the databases call a win or loss (for the side to
// move) with `left` plies of budget left.
Score verdict_score(Verdict says, const Board *b, int left, int ply);

// A score of the database band as 1..99 (the more, the more progress and budget), negative
// for a loss; 0 for any other score. Hub shows it as 89.01-89.99.
int verdict_band(Score s);

#endif
