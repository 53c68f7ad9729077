// SPDX-License-Identifier: MIT
// Owns the time budget of a move: soft target, hard limit, and how instability stretches it.
#include "timeman.h"

#include <time.h>

// Tuned by hand for draughts games of 60-100 plies; to be refined by matches.
enum {
    MOVES_HORIZON = 30, // sudden death: plan as if this many moves remain
    HARD_FACTOR = 5,    // the hard limit is at most this many soft targets
    MIN_THINK_MS = 1,
};

int64_t timeman_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

TimeBudget timeman_budget(const TimeInput *in)
{
    TimeBudget b = {-1, -1};
    int64_t overhead = max64(in->overhead_ms, 0);
    if (in->movetime_ms >= 0) {
        int64_t t = max64(in->movetime_ms - overhead, MIN_THINK_MS);
        b.soft_ms = b.hard_ms = t;
        return b;
    }
    if (in->time_ms < 0)
        return b;
    // This move pays its overhead; future moves pay theirs from their increment, and only the
    // part of the overhead the increment does not cover is kept in reserve for them.
    int moves = in->movestogo > 0 ? (in->movestogo < MOVES_HORIZON ? in->movestogo : MOVES_HORIZON)
                                  : MOVES_HORIZON;
    int64_t reserve = max64(overhead - in->inc_ms, 0) * (moves - 1);
    int64_t usable = max64(in->time_ms - overhead - reserve, 0);
    int64_t base = usable / moves + in->inc_ms * 3 / 4;
    // Never more than a third of what is left (all of it on the last move of a period).
    int64_t cap = in->movestogo == 1 ? usable : usable / 3;
    b.soft_ms = max64(min64(base, cap), MIN_THINK_MS);
    b.hard_ms = max64(min64(b.soft_ms * HARD_FACTOR, cap), b.soft_ms);
    return b;
}

int64_t timeman_soft_scaled(const TimeBudget *b, double changes, int drop)
{
    if (b->soft_ms < 0)
        return -1;
    double f = 1.0 + 0.5 * (changes > 2.0 ? 2.0 : changes);
    if (drop > 20)
        f *= drop > 60 ? 1.6 : 1.25;
    int64_t t = (int64_t)((double)b->soft_ms * f);
    return t < b->hard_ms ? t : b->hard_ms;
}
