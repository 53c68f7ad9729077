// SPDX-License-Identifier: MIT
// Time and limits of one search: the budget of a move (a soft target and a hard limit), the
// clock input of both dialects, and every decision to stop.
#ifndef TIMEMAN_H_INCLUDED
#define TIMEMAN_H_INCLUDED

#include "types.h"

typedef struct TimeInput {
    bool has_clock;      // time_ms, inc_ms and movestogo are given
    int64_t time_ms;     // our clock; a negative one counts as 0 (play on the increment)
    int64_t inc_ms;      // our increment (negative counts as 0)
    int movestogo;       // moves to the next time control, 0 if sudden death
    int64_t movetime_ms; // fixed time for this move, 0 if none
    int64_t overhead_ms; // what the GUI and pipes cost per move
} TimeInput;

typedef struct TimeBudget {
    int64_t soft_ms; // target; -1 = no time limit
    int64_t hard_ms; // never search past this; -1 = no time limit
} TimeBudget;

// What the main thread knows after an iteration, for the decision to start another.
typedef struct IterationEnd {
    int64_t elapsed_ms;
    bool pondering;    // time limits do not apply while pondering
    bool best_changed; // the best move differs from the previous iteration's
    Score score;       // the best move's score
    bool instant;      // a single legal move with a clock: play it after a short search
    Depth depth;       // the iteration's depth
    int mate_moves;    // the score as a win in N moves (0 if none)
    int mate_limit;    // `go mate N` (0 if not asked)
} IterationEnd;

// State kept across iterations by timeman_stop_after_iteration.
typedef struct TimeIterations {
    double changes; // best-move changes, halved every iteration
    Score last_score;
    int done; // iterations seen
} TimeIterations;

// The clock of the UCI-style dialect: wtime/btime is what is left now.
TimeInput timeman_uci_input(bool has_clock, int64_t time_ms, int64_t inc_ms, int movestogo,
                            int64_t movetime_ms);

// The clock of the Hub dialect: `time` is given before this move's increment is added (as
// pydraughts and lidraughts-bot send it), so the clock now is time + inc.
TimeInput timeman_hub_input(bool has_clock, int64_t time_ms, int64_t inc_ms, int moves,
                            int64_t movetime_ms);

// Computes the budget for one move.
TimeBudget timeman_budget(const TimeInput *in);

// No time limit (infinite analysis).
TimeBudget timeman_no_budget(void);

// Polled during an iteration: past the hard limit (never while pondering).
bool timeman_out_of_time(const TimeBudget *b, int64_t elapsed_ms, bool pondering);

// Polled at every node of a node-limited search: the budget is spent.
bool timeman_out_of_nodes(uint64_t limit, uint64_t used);

// Polled during an iteration: some thread has completed the deepest iteration asked for
// (limit 0: none asked).
bool timeman_depth_done(Depth limit, Depth completed);

// The budget of a single legal move played at once: b, its limits cut to a few milliseconds.
TimeBudget timeman_instant(TimeBudget b);

// After an iteration: true when the search should stop rather than start the next one.
bool timeman_stop_after_iteration(TimeIterations *t, const TimeBudget *b, const IterationEnd *it);

#endif
