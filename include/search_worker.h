// SPDX-License-Identifier: MIT
// The search's private part, shared by search.c (the tree) and report.c (root results and
// info lines): a search thread's state and the calls between the two. Not for other modules.
#ifndef SEARCH_WORKER_H_INCLUDED
#define SEARCH_WORKER_H_INCLUDED

#include <stdatomic.h>

#include "board.h"
#include "egdb.h"
#include "movepick.h"
#include "rules.h"
#include "tt.h"
#include "types.h"

typedef struct SearchShared SearchShared;
typedef struct SearchWorker SearchWorker;

typedef struct RootMove {
    Move move;
    Score score; // score of the last completed search of this move, -SCORE_INF if unknown
    Score prev_score;
    Bound bound;
    Depth seldepth;
    int pvlen;
    Move pv[MAX_PLY];
} RootMove;

// One ply of the search path: what the node at that ply keeps for itself and its children.
typedef struct SearchStack {
    DrawCounters counters; // the draw counters of the position at this ply
    Score eval;            // its static score, EVAL_NONE when it has none (a capture is due)
    uint16_t excluded;     // a move code left out here (the singular test), 0 if none
    Move killers[2];       // quiet moves that cut off at this ply (kept from search to search)
    int pvlen;             // the principal variation from this ply: its length and moves
    Move pv[MAX_PLY];
    NetAccumulator acc; // the network's sums of the position at this ply (when it is used)
} SearchStack;

struct SearchWorker {
    int id;
    SearchShared *sh;
    _Atomic uint64_t nodes;         // local_nodes, seldepth and tbhits as last
    _Atomic int published_seldepth; // published, for the other threads' reports
    _Atomic uint64_t published_tbhits;
    uint64_t local_nodes;
    uint64_t tbhits;
    Depth seldepth;
    Depth root_depth;
    Depth completed;         // deepest iteration this worker completed
    RootMove completed_root; // its best move, score and PV
    int nskill_lines;        // main thread of a weakened search: the best lines of the
    RootMove skill_lines[SKILL_LINES_MAX]; // last completed iteration, best first
    Move reported_move;                    // main thread: the last info line of line 1,
    Score reported_score;                  // its score, depth (depth 0: none yet) and
    Depth reported_depth;                  // node count
    uint64_t reported_nodes;
    bool egdb_root;                         // the root is in the endgame databases: their
                                            // wins are searched on for the shortest one
    int key_base;                           // index in keys of the root position
    Key keys[MAX_GAME_PLIES + MAX_PLY + 2]; // game history then the search path
    SearchStack stack[MAX_PLY + 2];         // the search path, ply by ply
    MoveHistory mh;                         // history of quiet moves (movepick)
    int nroots;
    int pv_index; // MultiPV line being searched
    RootMove roots[MAX_MOVES];
    EgdbCache egdb_cache; // decompressed database blocks of this thread
};

// ---- Shared by search.c and report.c (inline, so that report.c never calls into search.c) -----

// Makes w's node count, selective depth and database hits visible to the reporting thread.
static inline void search_publish(SearchWorker *w)
{
    atomic_store_explicit(&w->nodes, w->local_nodes, memory_order_relaxed);
    atomic_store_explicit(&w->published_seldepth, w->seldepth, memory_order_relaxed);
    atomic_store_explicit(&w->published_tbhits, w->tbhits, memory_order_relaxed);
}

// w's node count and database hits as last published.
static inline uint64_t search_published_nodes(const SearchWorker *w)
{
    return atomic_load_explicit(&w->nodes, memory_order_relaxed);
}
static inline uint64_t search_published_tbhits(const SearchWorker *w)
{
    return atomic_load_explicit(&w->published_tbhits, memory_order_relaxed);
}

// ---- report.c -------------------------------------------------------------------------------

// Nodes of all threads: exact in a node-limited search, else as last published.
uint64_t report_nodes(const SearchShared *sh);

// A root move's score: its last search's, or the iteration before's while it has none.
Score report_root_score(const RootMove *rm);

// Reports root move rm as MultiPV line `line` (0-based) of an iteration of depth.
void report_move(SearchWorker *w, Depth depth, const RootMove *rm, int line, Bound bound);

// Reports the root move now on line `line`.
void report_line(SearchWorker *w, Depth depth, int line, Bound bound);

// The last info line of a single-line search: reported unless the last line already says it.
void report_result(SearchWorker *w, Depth depth, const RootMove *rm, Bound bound);

// The search's result: root move rm (its score, and the reply in its PV to ponder on).
void report_set_result(SearchShared *sh, const RootMove *rm, Depth depth);

#endif
