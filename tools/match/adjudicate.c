// SPDX-License-Identifier: MIT
// Owns a match game's record and its adjudication: the game-end rules of rules.md, agreed
// scores (draw and resign), and the move limit.
#include <stdlib.h>
#include <string.h>

#include "match.h"

void game_start(Game *g, const Board *start)
{
    memset(g, 0, sizeof *g);
    g->start = *start;
    g->board = *start;
}

void game_end(Game *g, GameOutcome o, const char *reason)
{
    g->outcome = o;
    snprintf(g->reason, sizeof g->reason, "%s", reason);
}

static GameOutcome win_for(Side s) { return s == SIDE_WHITE ? OUT_WHITE_WINS : OUT_BLACK_WINS; }

// True when each of the last `plies` plies has a score whose test passes (mover's view).
static bool streak(const Game *g, int plies, int limit, bool (*test)(int score, int limit, int k))
{
    if (g->nplies < plies)
        return false;
    for (int k = 0; k < plies; k++) {
        int i = g->nplies - 1 - k;
        if (!g->has_score[i] || !test(g->scores[i], limit, k))
            return false;
    }
    return true;
}

static bool near_zero(int score, int limit, int k)
{
    (void)k;
    return abs(score) <= limit;
}

// The last mover is losing (k even) and its opponent agrees it is winning (k odd).
static bool last_mover_lost(int score, int limit, int k)
{
    return k % 2 == 0 ? score <= -limit : score >= limit;
}

GameOutcome game_play(Game *g, const Move *m, bool has_score, int score_cp, const Adjudication *adj)
{
    if (g->nplies >= MATCH_GAME_PLIES_MAX) {
        game_end(g, OUT_DRAW, "game too long for the runner's record");
        return g->outcome;
    }
    Side mover = g->board.side;
    g->keys[g->nplies] = g->board.key;
    g->counters = rules_after_move(g->counters, &g->board, m);
    board_play(&g->board, m);
    g->moves[g->nplies] = *m;
    g->has_score[g->nplies] = has_score;
    g->scores[g->nplies] = score_cp;
    g->nplies++;

    GameResult r = rules_game_result(&g->board, g->counters, g->keys, g->nplies);
    if (r == GAME_LOSS) {
        game_end(g, win_for(mover),
                 mover == SIDE_WHITE ? "Black has no legal move" : "White has no legal move");
    } else if (r != GAME_ONGOING) {
        game_end(g, OUT_DRAW, rules_result_text(r));
    } else if (adj->resign_movecount > 0 &&
               streak(g, 2 * adj->resign_movecount, adj->resign_score, last_mover_lost)) {
        game_end(g, win_for(side_flip(mover)), "adjudication: both engines agree on a win");
    } else if (adj->draw_movecount > 0 && (g->nplies + 1) / 2 >= adj->draw_movenumber &&
               streak(g, 2 * adj->draw_movecount, adj->draw_score, near_zero)) {
        game_end(g, OUT_DRAW, "adjudication: both engines agree on a draw");
    } else if (adj->maxmoves > 0 && g->nplies >= 2 * adj->maxmoves) {
        game_end(g, OUT_DRAW, "adjudication: move limit");
    }
    return g->outcome;
}
