// SPDX-License-Identifier: MIT
// Owns what a database value means under the game's counters, and its score in the search.
#include "verdict.h"

#include <assert.h>

#include "bitboard.h"

bool verdict_balance_rules(const Board *b)
{
    GameResult r = rules_counter_draw(b, (DrawCounters){0, 30, 0});
    return r == GAME_DRAW_SMALL || r == GAME_DRAW_3K_VS_K;
}

Verdict verdict_of_value(const Board *b, int v, int loose, DrawCounters c, int *left)
{
    enum { LIMIT = 30, SLACK_SMALL = 60 - LIMIT, SLACK_LARGE = 120 - LIMIT };
    *left = 0;
    bool balance_rules = verdict_balance_rules(b);
    bool men = (b->pieces[0] | b->pieces[1]) & ~b->kings;
    if (egdb_is_win(v) || egdb_is_loss(v)) {
        int counter = c.balance;
        if (!balance_rules) {
            counter = c.reversible;
            if ((b->pieces[0] & b->kings) && (b->pieces[1] & b->kings)) {
                int slack = __builtin_popcountll(b->pieces[0] | b->pieces[1]) >= 6 ? SLACK_LARGE
                                                                                   : SLACK_SMALL;
                if (c.balance - slack > counter)
                    counter = c.balance - slack;
            }
        }
        *left = egdb_budget(v) - counter;
        if (*left >= 0)
            return egdb_is_win(v) ? VERDICT_WIN : VERDICT_LOSS;
        *left = 0;
    }
    if (!men)
        return VERDICT_DRAW; // kings alone: the strict model is the rules
    if (loose >= 0) {
        // The loose model's draws are draws: nobody wins even with 7.2.6 left out.
        int counter = balance_rules ? c.balance : c.reversible;
        bool decided = egdb_is_win(loose) || egdb_is_loss(loose);
        return decided && egdb_budget(loose) >= counter ? VERDICT_NOTHING : VERDICT_DRAW;
    }
    // No loose table: the strict value as it is (a set built before them).
    if (!egdb_is_win(v) && !egdb_is_loss(v))
        return VERDICT_DRAW;
    return balance_rules ? VERDICT_DRAW : VERDICT_NOTHING;
}

Verdict verdict_judge(const Egdb *db, const Board *b, DrawCounters c, EgdbCache *cache, int *left)
{
    *left = 0;
    int v = egdb_probe(db, b, EGDB_STRICT, cache);
    if (v < 0)
        return VERDICT_UNKNOWN;
    Verdict says = verdict_of_value(b, v, -1, c, left);
    bool men = (b->pieces[0] | b->pieces[1]) & ~b->kings;
    if (says == VERDICT_WIN || says == VERDICT_LOSS || !men)
        return says;
    int loose = egdb_probe(db, b, EGDB_LOOSE, cache);
    return loose < 0 ? says : verdict_of_value(b, v, loose, c, left);
}

// The winner's progress: the loser's lost pieces twice, the winner's men once and kings twice.
// Captures by the winner and its promotions raise it; a piece the winner gives away lowers it.
static int progress(const Board *b, Side winner)
{
    Bitboard mine = b->pieces[winner], theirs = b->pieces[side_flip(winner)];
    int p =
        2 * (EGDB_PIECES_MAX - 1 - bb_count(theirs)) + bb_count(mine) + bb_count(mine & b->kings);
    assert(p >= 0 && p <= VERDICT_PROGRESS_MAX);
    return p;
}

Score verdict_score(Verdict says, const Board *b, int left, int ply)
{
    assert(says == VERDICT_WIN || says == VERDICT_LOSS);
    assert(left >= 0 && left <= EGDB_F_ANY && ply >= 0 && ply < MAX_PLY);
    Side winner = says == VERDICT_WIN ? b->side : side_flip(b->side);
    Score s = SCORE_EGDB + SCORE_EGDB_PROGRESS * progress(b, winner) + left - ply;
    return says == VERDICT_WIN ? s : -s;
}

int verdict_band(Score s)
{
    int a = s < 0 ? -s : s;
    if (a < SCORE_EGDB_MIN || a >= SCORE_EGDB_MAX)
        return 0;
    int x = 1 + (a - SCORE_EGDB_MIN) * 98 / (SCORE_EGDB_MAX - SCORE_EGDB_MIN);
    return s < 0 ? -x : x;
}
