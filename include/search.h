// SPDX-License-Identifier: MIT
// Iterative-deepening principal variation search over captures-resolving quiescence. Reports
// through callbacks; never prints and never reads options.
#ifndef SEARCH_H_INCLUDED
#define SEARCH_H_INCLUDED

#include <stdatomic.h>

#include "board.h"
#include "egdb.h"
#include "eval.h"
#include "net.h"
#include "rules.h"
#include "timeman.h"
#include "tt.h"
#include "types.h"
#include "util.h"
#include "verdict.h"

enum {
    SCORE_INF = 32000,
    SCORE_WIN = 31000,                   // win at the root; a win in p plies scores WIN - p
    SCORE_WIN_MIN = SCORE_WIN - MAX_PLY, // scores at or past this are forced wins
    // Database wins and losses score in the band SCORE_EGDB_MIN..SCORE_EGDB_MAX (verdict.h).
    MULTIPV_MAX = 64,
    // Skill Level: SKILL_FULL is full strength; below it the move is chosen among the best
    // lines with an error added to their scores (search_skill_*).
    SKILL_FULL = 20,
    SKILL_LINES_MAX = 8,
};

typedef struct SearchLimits {
    Depth depth;      // deepest iteration (0 = no limit)
    uint64_t nodes;   // node budget (0 = none)
    int mate;         // stop once a win in this many moves is found (0 = off)
    TimeInput time;   // clock, increment, movestogo, movetime, overhead
    bool infinite;    // search until stop
    bool ponder;      // pondering: the clock starts at ponderhit
    bool analysis;    // never reply at once, even with a single legal move
    int multipv;      // number of best root moves to report (1..MULTIPV_MAX)
    int nsearchmoves; // restrict the root to these moves (0 = all)
    Move searchmoves[MAX_MOVES];
    int weakness;       // 0: full strength; 1..SKILL_FULL: SKILL_FULL - Skill Level
    uint64_t skill_rng; // seed of the weakened choice (weakness > 0)
} SearchLimits;

// One report, for an info line.
typedef struct SearchReport {
    Depth depth;
    Depth seldepth;
    int multipv; // 1-based
    Score score;
    Bound bound; // BOUND_EXACT, or a fail-high/low bound during an aspiration re-search
    uint64_t nodes;
    uint64_t tbhits; // endgame database probes that gave a value
    int64_t time_ms;
    int hashfull;
    int pvlen;
    Move pv[MAX_PLY];
} SearchReport;

typedef void (*SearchInfoFn)(void *ctx, const SearchReport *report);

typedef struct SearchWorker SearchWorker;

// Slots of the breadcrumb table in SearchShared (a power of two).
enum { SEARCH_CRUMB_SLOTS = 1024 };

// State shared by every thread of one search.
typedef struct SearchShared {
    TT *tt;
    SearchLimits limits;
    TimeBudget budget;
    atomic_bool stop;            // set by the main thread, the front end or a limit; read at
                                 // every node
    atomic_bool pondering;       // while set, time limits do not apply
    _Atomic int64_t start_ms;    // when the clock of this move started (reset at ponderhit)
    _Atomic int completed_depth; // deepest iteration any thread has completed
    _Atomic uint64_t nodes_used; // nodes of all threads, counted at every node when the
                                 // search has a node limit (limits.nodes)
    // Near the root, the position each thread is searching, with the thread's id in the low
    // byte (0: free); see search.c, "breadcrumbs".
    _Atomic uint64_t crumbs[SEARCH_CRUMB_SLOTS];
    Board root;
    DrawCounters root_counters;
    const Key *history; // keys of the game's earlier positions, oldest first
    int history_len;
    const EvalWeights *eval; // the evaluation's weights
    const NetWeights *net;   // the evaluation network (NULL: the pattern evaluation)
    const Egdb *egdb;        // endgame databases (NULL: none)
    int egdb_pieces;         // probe positions of at most this many pieces
    SearchInfoFn on_info;
    void *ctx;
    int thread_count;
    SearchWorker **workers;
    // Result, written by the main thread when it finishes.
    Move best;
    Move ponder;
    bool has_best;
    bool has_ponder;
    Score best_score;
    Depth best_depth;
    int best_pvlen; // the principal variation of the move played
    Move best_pv[MAX_PLY];
} SearchShared;

// Milliseconds since the clock of this move started.
static inline int64_t search_elapsed_ms(const SearchShared *sh)
{
    return util_now_ms() - atomic_load_explicit(&sh->start_ms, memory_order_relaxed);
}

// Allocates a worker (64-byte aligned, owns its board, stacks, killers and history); NULL when
// out of memory.
SearchWorker *search_worker_new(int id);
void search_worker_free(SearchWorker *w);

// Forgets killers and history (new game).
void search_worker_clear(SearchWorker *w);

// Runs the search of worker w on sh until a limit or stop. Worker 0 is the main thread: it
// reports, decides when to stop, and fills the result in sh. Helpers (id > 0) search the same
// tree and stop when sh->stop is set.
void search_run(SearchWorker *w, SearchShared *sh);

// Zeroes the node count and selective depth that other threads read of w. Called for every
// worker before a search starts, while they are parked, so that no report counts the last
// search's figures of a helper that has not started yet.
void search_worker_reset_counts(SearchWorker *w);

// Nodes searched by worker w in the current search.
uint64_t search_worker_nodes(const SearchWorker *w);

// A weakened level (Skill Level 0..SKILL_FULL - 1): its deepest iteration, the number of
// best lines its choice is made among (the search runs as MultiPV with at least as many), and
// the error (standard deviation, centi-men) added to their scores before the best is taken.
Depth search_skill_depth(int level);
int search_skill_lines(int level);
int search_skill_noise(int level);

// After every thread has stopped, called on the main thread: the best of the deepest completed
// iterations replaces the main thread's result when a helper completed a deeper iteration with
// a score at least as good (single-line searches only); its info line is then reported.
void search_choose_result(SearchShared *sh);

#endif
