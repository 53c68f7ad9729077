// SPDX-License-Identifier: MIT
// Owns the search's reports and result: info lines of the root moves (all threads' node counts,
// database hits and selective depth), the last line that names the move played, and the
// choice among the threads' completed iterations.
#include <assert.h>
#include <stdatomic.h>
#include <string.h>

#include "movegen.h"
#include "search.h"
#include "search_worker.h"

// Database hits of all threads, as last published.
static uint64_t total_tbhits(const SearchShared *sh)
{
    uint64_t n = 0;
    for (int i = 0; i < sh->thread_count; i++)
        n += search_published_tbhits(sh->workers[i]);
    return n;
}

// Nodes of all threads: exact in a node-limited search, else as last published.
uint64_t report_nodes(const SearchShared *sh)
{
    if (sh->limits.nodes)
        return atomic_load_explicit(&sh->nodes_used, memory_order_relaxed);
    uint64_t n = 0;
    for (int i = 0; i < sh->thread_count; i++)
        n += search_published_nodes(sh->workers[i]);
    return n;
}

// Deepest ply any thread has reached in this search.
static Depth max_seldepth(const SearchShared *sh)
{
    int d = 0;
    for (int i = 0; i < sh->thread_count; i++) {
        int s = atomic_load_explicit(&sh->workers[i]->published_seldepth, memory_order_relaxed);
        d = s > d ? s : d;
    }
    return (Depth)d;
}

Score report_root_score(const RootMove *rm)
{
    return rm->score == -SCORE_INF ? rm->prev_score : rm->score;
}

#ifndef NDEBUG
// True when every move of the PV is legal in turn from the root (checked in debug builds).
static bool pv_is_legal(const Board *root, const RootMove *rm)
{
    Board b = *root;
    for (int i = 0; i < rm->pvlen; i++) {
        if (!movegen_is_legal(&b, &rm->pv[i]))
            return false;
        board_play(&b, &rm->pv[i]);
    }
    return true;
}
#endif

void report_move(SearchWorker *w, Depth depth, const RootMove *rm, int line, Bound bound)
{
    SearchShared *sh = w->sh;
    if (!sh->on_info)
        return;
    assert(pv_is_legal(&sh->root, rm));
    search_publish(w);
    Depth seldepth = max_seldepth(sh); // all threads (this one's is published)
    if (rm->seldepth > seldepth)
        seldepth = rm->seldepth;
    SearchReport r = {.depth = depth,
                      .seldepth = seldepth > depth ? seldepth : depth,
                      .multipv = line + 1,
                      .score = report_root_score(rm),
                      .bound = bound,
                      .nodes = report_nodes(sh),
                      .tbhits = total_tbhits(sh),
                      .time_ms = search_elapsed_ms(sh),
                      .hashfull = tt_hashfull(sh->tt),
                      .pvlen = rm->pvlen};
    memcpy(r.pv, rm->pv, (size_t)rm->pvlen * sizeof(Move));
    sh->on_info(sh->ctx, &r);
    if (line == 0) {
        w->reported_move = rm->move;
        w->reported_score = r.score;
        w->reported_depth = depth;
        w->reported_nodes = r.nodes;
    }
}

void report_line(SearchWorker *w, Depth depth, int line, Bound bound)
{
    report_move(w, depth, &w->roots[line], line, bound);
}

// The last info line of a single-line search tells the move played, with its depth, score, PV
// and the search's final node count: reported by the main thread w unless its last line
// already says all that.
void report_result(SearchWorker *w, Depth depth, const RootMove *rm, Bound bound)
{
    search_publish(w);
    if (w->reported_depth != depth || !move_same(&rm->move, &w->reported_move) ||
        w->reported_score != report_root_score(rm) || w->reported_nodes != report_nodes(w->sh))
        report_move(w, depth, rm, 0, bound);
}

// The search's result: root move rm (its score, and the reply in its PV to ponder on).
void report_set_result(SearchShared *sh, const RootMove *rm, Depth depth)
{
    sh->best = rm->move;
    sh->has_best = true;
    sh->best_score = report_root_score(rm);
    sh->best_depth = depth;
    sh->has_ponder = rm->pvlen > 1;
    if (sh->has_ponder)
        sh->ponder = rm->pv[1];
    sh->best_pvlen = rm->pvlen;
    memcpy(sh->best_pv, rm->pv, (size_t)rm->pvlen * sizeof(Move));
}

void search_choose_result(SearchShared *sh)
{
    if (!sh->has_best || sh->limits.multipv > 1)
        return;
    // Compared with the main thread's last completed iteration, even when its move comes
    // from the unfinished one.
    const SearchWorker *chosen = NULL;
    Depth deepest = sh->workers[0]->completed;
    Score score = sh->best_score;
    for (int i = 1; i < sh->thread_count; i++) {
        const SearchWorker *h = sh->workers[i];
        if (h->completed > deepest && h->completed_root.score >= score) {
            chosen = h;
            deepest = h->completed;
            score = h->completed_root.score;
        }
    }
    if (!chosen)
        return;
    report_set_result(sh, &chosen->completed_root, deepest);
    report_result(sh->workers[0], deepest, &chosen->completed_root, BOUND_EXACT);
}
