// SPDX-License-Identifier: MIT
// Owns the time budget of a move, how instability stretches it, and every stop decision.
#include "timeman.h"

#include "util.h"

// Tuned by hand for draughts games of 60-100 plies; the 1,000-game time-loss runs of
// bench/RESULTS.md (1 s + 0.1 s) lost none on time with them.
enum {
    MOVES_HORIZON = 18, // sudden death: plan as if this many moves remain (30 before:
                        // games of 33-38 moves ended with 43-71 % of a 10 s clock unused)
    HARD_FACTOR = 5,    // the hard limit is at most this many soft targets
    MIN_THINK_MS = 1,
    NEXT_ITERATION_PCT = 60, // past this share of the target the next iteration rarely ends
    DROP_SMALL = 20,         // a score fall (centi-men) that stretches the target by 25%
    DROP_LARGE = 60,         // ... and by 60%
    // A single legal move is played at once, after a search short enough not to be felt
    // (depth 8 takes 1-3 ms in the middle game here) that makes its score mean something and
    // fills the table for the next move: first choice.
    INSTANT_DEPTH = 8,
    INSTANT_MS = 10,
};

// Each best-move change of the last iterations (decayed by half per iteration) adds half of
// the target, up to this many changes.
#define CHANGES_MAX 2.0

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

TimeInput timeman_uci_input(bool has_clock, int64_t time_ms, int64_t inc_ms, int movestogo,
                            int64_t movetime_ms)
{
    return (TimeInput){has_clock, max64(time_ms, 0),     max64(inc_ms, 0),
                       movestogo, max64(movetime_ms, 0), 0};
}

TimeInput timeman_hub_input(bool has_clock, int64_t time_ms, int64_t inc_ms, int moves,
                            int64_t movetime_ms)
{
    inc_ms = max64(inc_ms, 0);
    return timeman_uci_input(has_clock, time_ms + inc_ms, inc_ms, moves, movetime_ms);
}

TimeBudget timeman_no_budget(void) { return (TimeBudget){-1, -1}; }

TimeBudget timeman_budget(const TimeInput *in)
{
    TimeBudget b = timeman_no_budget();
    int64_t overhead = max64(in->overhead_ms, 0);
    if (in->movetime_ms > 0) {
        int64_t t = max64(in->movetime_ms - overhead, MIN_THINK_MS);
        b.soft_ms = b.hard_ms = t;
        return b;
    }
    if (!in->has_clock)
        return b;
    int64_t time = max64(in->time_ms, 0), inc = max64(in->inc_ms, 0);
    // This move pays its overhead; future moves pay theirs from their increment, and only the
    // part of the overhead the increment does not cover is kept in reserve for them.
    int moves = in->movestogo > 0 ? (in->movestogo < MOVES_HORIZON ? in->movestogo : MOVES_HORIZON)
                                  : MOVES_HORIZON;
    int64_t reserve = max64(overhead - inc, 0) * (moves - 1);
    int64_t usable = max64(time - overhead - reserve, 0);
    int64_t base = usable / moves + inc * 3 / 4;
    // Never more than a third of what is left (all of it on the last move of a period); with
    // next to nothing left, half of the increment (what the clock gets back after the move).
    int64_t cap = in->movestogo == 1 ? usable : usable / 3;
    cap = max64(cap, min64((inc - overhead) / 2, usable));
    b.soft_ms = max64(min64(base, cap), MIN_THINK_MS);
    b.hard_ms = max64(min64(b.soft_ms * HARD_FACTOR, cap), b.soft_ms);
    return b;
}

bool timeman_out_of_time(const TimeBudget *b, int64_t elapsed_ms, bool pondering)
{
    return !pondering && b->hard_ms >= 0 && elapsed_ms >= b->hard_ms;
}

bool timeman_out_of_nodes(uint64_t limit, uint64_t used) { return limit && used >= limit; }

bool timeman_depth_done(Depth limit, Depth completed) { return limit > 0 && completed >= limit; }

// The soft target scaled for instability: when the best move changed in recent iterations or
// the score fell (drop, centi-men, positive = worse), search longer.
static int64_t soft_scaled(const TimeBudget *b, double changes, int drop)
{
    if (b->soft_ms < 0)
        return -1;
    double f = 1.0 + 0.5 * (changes > CHANGES_MAX ? CHANGES_MAX : changes);
    if (drop > DROP_SMALL)
        f *= drop > DROP_LARGE ? 1.6 : 1.25;
    int64_t t = (int64_t)((double)b->soft_ms * f);
    return t < b->hard_ms ? t : b->hard_ms;
}

bool timeman_stop_after_iteration(TimeIterations *t, const TimeBudget *b, const IterationEnd *it)
{
    if (it->best_changed)
        t->changes += 1.0;
    int drop = t->done > 0 ? t->last_score - it->score : 0;
    t->last_score = it->score;
    t->done++;
    int64_t soft = soft_scaled(b, t->changes, drop);
    t->changes *= 0.5;
    if (it->mate_limit > 0 && it->mate_moves > 0 && it->mate_moves <= it->mate_limit)
        return true;
    if (it->pondering)
        return false;
    if (soft >= 0 && it->elapsed_ms >= soft * NEXT_ITERATION_PCT / 100)
        return true; // the next iteration would most likely not finish in time
    return it->instant && it->depth >= INSTANT_DEPTH;
}

TimeBudget timeman_instant(TimeBudget b)
{
    b.hard_ms = b.hard_ms >= 0 ? min64(b.hard_ms, INSTANT_MS) : INSTANT_MS;
    b.soft_ms = b.soft_ms >= 0 ? min64(b.soft_ms, b.hard_ms) : b.hard_ms;
    return b;
}
