// SPDX-License-Identifier: MIT
// Time budget for one move: a soft target (stop after an iteration past it) and a hard limit.
#ifndef TIMEMAN_H_INCLUDED
#define TIMEMAN_H_INCLUDED

#include "types.h"

typedef struct TimeInput {
    int64_t time_ms;     // our clock, or -1 when there is no clock
    int64_t inc_ms;      // our increment
    int movestogo;       // moves to the next time control, 0 if sudden death
    int64_t movetime_ms; // fixed time for this move, or -1
    int64_t overhead_ms; // what the GUI and pipes cost per move
} TimeInput;

typedef struct TimeBudget {
    int64_t soft_ms; // target; -1 = no time limit
    int64_t hard_ms; // never search past this; -1 = no time limit
} TimeBudget;

// Computes the budget for one move.
TimeBudget timeman_budget(const TimeInput *in);

// The soft target scaled for instability: when the best move changed in recent iterations or
// the score fell, search longer. changes: best-move changes in the last iterations (decayed);
// drop: score fall in centi-men since the previous iteration (positive = worse).
int64_t timeman_soft_scaled(const TimeBudget *b, double changes, int drop);

// Milliseconds on a monotonic clock.
int64_t timeman_now_ms(void);

#endif
