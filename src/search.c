// SPDX-License-Identifier: MIT
// Owns the search: iterative deepening with aspiration windows, principal variation search,
// capture quiescence with threat resolution, pruning, draw and game-end scoring. Move ordering
// is movepick's, and every decision to stop is timeman's.
#include "search.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "eval.h"
#include "movegen.h"
#include "movepick.h"
#include "platform.h"
#include "search_worker.h"
#include "util.h"

// The search's constants. "Match" means accepted by an SPRT match against the version before
// (logs in bench/matches/, figures in bench/RESULTS.md); "first choice" means set by hand and
// not tuned since.
enum {
    CHECK_EVERY = 1024,        // nodes between two looks at the clock and publishing the node
                               // count (the stop flag and node limits are checked every node);
                               // a power of two, cheap next to 6 M nodes/s: first choice
    ASPIRATION_DEPTH = 5,      // first depth searched with an aspiration window: first choice
    ASPIRATION_DELTA = 20,     // initial half-width of the window, in centi-men: first choice
    ASPIRATION_MAX = 400,      // a window grown past this half-width opens fully: first choice
    LMR_MIN_DEPTH = 3,         // late-move reductions from this depth (match, 2026-11-29)
    LMR_MIN_MOVES = 2,         // moves searched at full depth before reductions start (match)
    RFP_MAX_DEPTH = 6,         // reverse futility pruning up to this depth (match, lmr-rfp)
    RFP_MARGIN = 70,           // per ply of depth, in centi-men (match, lmr-rfp)
    LMP_MAX_DEPTH = 5,         // late-move pruning of quiet moves up to this depth (match,
                               // prune-lmp-futility-iir)
    FUTILITY_MAX_DEPTH = 3,    // futility pruning of quiet moves up to this depth (same match)
    FUTILITY_MARGIN = 80,      // per ply of depth, in centi-men (same match)
    IIR_MIN_DEPTH = 5,         // no TT move from this depth on: search one ply shallower (same)
    SE_MIN_DEPTH = 8,          // singular extension of the TT move from this depth (match,
                               // 2026-12-05, search-singular; the depth itself a first choice)
    SE_MARGIN = 2,             // centi-men per ply of depth below the TT score (same match)
    REPORT_NEW_BEST_MS = 500,  // a new best move mid-iteration is reported after this time
    REPORT_BOUND_MS = 1000,    // fail-high/low lines are reported after this time
    EVAL_NONE = SCORE_INF + 1, // no static score (a capture is pending)
};

_Static_assert(SCORE_EGDB_MAX + EGDB_F_ANY < SCORE_WIN_MIN, "database wins stay below search wins");

// Late-move reductions by depth and move number: about ln(depth) * ln(moves) / 1.5 plies
// (1.75 before; 1.5 won its match, 2026-11-29, lmr-divisor-1.5).
#define LMR_DIVISOR 1.5
static int8_t lmr_table[64][MAX_MOVES];
static pthread_once_t lmr_once = PTHREAD_ONCE_INIT;

static void build_lmr(void)
{
    for (int d = 1; d < 64; d++)
        for (int i = 1; i < MAX_MOVES; i++)
            lmr_table[d][i] = (int8_t)(0.5 + log((double)d) * log((double)i) / LMR_DIVISOR);
}

// Quiet moves searched before the rest are pruned, by depth and whether the static score
// improved on two plies before (the formula of chess engines, accepted by its match).
static int lmp_count(Depth depth, bool improving)
{
    return (3 + depth * depth) / (improving ? 1 : 2) + 1;
}

// A winning score as moves to the win (0 if it is not a forced win).
static int win_moves(Score s) { return s >= SCORE_WIN_MIN ? (SCORE_WIN - s + 1) / 2 : 0; }

#ifndef NDEBUG
static inline bool is_score(Score s) { return s > -SCORE_INF && s < SCORE_INF; }
#endif

// Win and loss scores (search and database ones) are stored relative to the node, not the
// root.
static Score score_to_tt(Score s, int ply)
{
    return s >= SCORE_EGDB_MIN ? s + ply : s <= -SCORE_EGDB_MIN ? s - ply : s;
}

static Score score_from_tt(Score s, int ply)
{
    return s >= SCORE_EGDB_MIN ? s - ply : s <= -SCORE_EGDB_MIN ? s + ply : s;
}

SearchWorker *search_worker_new(int id)
{
    void *mem = platform_aligned_alloc(64, sizeof(SearchWorker));
    if (!mem)
        return NULL;
    SearchWorker *w = mem;
    memset(w, 0, sizeof *w);
    w->id = id;
    return w;
}

void search_worker_free(SearchWorker *w) { platform_aligned_free(w); }

void search_worker_clear(SearchWorker *w)
{
    movepick_clear(&w->mh);
    for (int i = 0; i < MAX_PLY + 2; i++)
        memset(w->stack[i].killers, 0, sizeof w->stack[i].killers);
}

void search_worker_reset_counts(SearchWorker *w)
{
    w->local_nodes = 0;
    w->seldepth = 0;
    w->tbhits = 0;
    search_publish(w);
}

uint64_t search_worker_nodes(const SearchWorker *w) { return search_published_nodes(w); }

// The endgame databases' score of b at ply, under the game's counters, or false when b is not
// in them, has a capture pending, or they cannot settle it at these counters (verdict.h:
// with men on the board, a strict draw or a win past its budget may still be a win, unless
// the loose table says it is a draw): those are searched on. A draw is exact (*bound
// BOUND_EXACT); a win is a floor (BOUND_LOWER) and a loss a ceiling (BOUND_UPPER): a win the
// search finds within its depth scores above every database win, so the search still looks
// for the shortest one where the window asks for it.
static bool probe_egdb(SearchWorker *w, const Board *b, int ply, Score *score, Bound *bound)
{
    const SearchShared *sh = w->sh;
    int pieces = __builtin_popcountll(b->pieces[0] | b->pieces[1]);
    if (!sh->egdb || pieces > sh->egdb_pieces || movegen_has_capture(b))
        return false;
    int left;
    Verdict says = verdict_judge(sh->egdb, b, w->stack[ply].counters, &w->egdb_cache, &left);
    if (says == VERDICT_NOTHING || says == VERDICT_UNKNOWN)
        return false;
    // Rule 7.2.7 counts from when a lone king came to the long diagonal, which the databases
    // do not know. It only adds draws, so their draw holds there; their wins and losses are
    // searched, with the game's counter.
    if (says != VERDICT_DRAW && rules_diagonal_ending(b))
        return false;
    w->tbhits++;
    if (says == VERDICT_DRAW) {
        *score = 0;
        *bound = BOUND_EXACT;
        return true;
    }
    *score = verdict_score(says, b, left, ply);
    *bound = says == VERDICT_WIN ? BOUND_LOWER : BOUND_UPPER;
    return true;
}

// The main thread always completes depth 1 (a few hundred nodes at most), so that even an
// immediate stop returns a searched move. Helpers stop at once.
static bool stopped(const SearchWorker *w)
{
    return (w->completed > 0 || w->id != 0) &&
           atomic_load_explicit(&w->sh->stop, memory_order_relaxed);
}

// Counts a node; every CHECK_EVERY nodes the main thread checks the hard limits.
static void count_node(SearchWorker *w, int ply)
{
    w->local_nodes++;
    if (ply > w->seldepth)
        w->seldepth = ply;
    SearchShared *sh = w->sh;
    // A node limit is exact: with one, every node of every thread is counted in one place.
    if (sh->limits.nodes &&
        timeman_out_of_nodes(sh->limits.nodes,
                             atomic_fetch_add_explicit(&sh->nodes_used, 1, memory_order_relaxed) +
                                 1))
        atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
    if ((w->local_nodes & (CHECK_EVERY - 1)) != 0)
        return;
    search_publish(w);
    if (w->id != 0)
        return;
    bool pondering = atomic_load_explicit(&sh->pondering, memory_order_relaxed);
    if (timeman_out_of_time(&sh->budget, search_elapsed_ms(sh), pondering))
        atomic_store(&sh->stop, true);
    // A helper has completed the last iteration asked for: its result will be reported.
    if (sh->limits.multipv <= 1 &&
        timeman_depth_done(sh->limits.depth,
                           atomic_load_explicit(&sh->completed_depth, memory_order_relaxed)))
        atomic_store(&sh->stop, true);
}

// Draw by repetition (any earlier occurrence since the last irreversible move) or by one of
// the counters of 7.2.4-7.2.8.
static bool is_draw(const SearchWorker *w, const Board *b, int ply)
{
    DrawCounters c = w->stack[ply].counters;
    int at = w->key_base + ply;
    if (c.reversible >= 4 && rules_repetitions(w->keys, at, b->key, c.reversible) > 0)
        return true;
    return rules_counter_draw(b, c) != GAME_ONGOING;
}

static void push(SearchWorker *w, const Board *parent, const Move *m, const Board *child, int ply)
{
    assert(ply >= 0 && ply + 1 < MAX_PLY + 2 &&
           w->key_base + ply + 1 < MAX_GAME_PLIES + MAX_PLY + 2);
    w->stack[ply + 1].counters = rules_after_move(w->stack[ply].counters, parent, m);
    w->keys[w->key_base + ply + 1] = child->key;
    if (w->sh->net)
        net_update(w->sh->net, parent, m, &w->stack[ply].acc, &w->stack[ply + 1].acc);
}

// The static score of b, the position at ply: the network's when one is loaded (its sums are
// on the stack), else the pattern evaluation's.
static Score evaluate(const SearchWorker *w, const Board *b, int ply)
{
    const NetWeights *net = w->sh->net;
#ifndef NDEBUG
    if (net) { // the sums kept move by move are the position's (debug and sanitizer builds)
        NetAccumulator fresh;
        net_refresh(net, b, &fresh);
        assert(memcmp(&fresh, &w->stack[ply].acc, sizeof fresh) == 0);
    }
#endif
    return net ? (Score)net_score(net, b, &w->stack[ply].acc) : eval_evaluate(w->sh->eval, b);
}

static void update_pv(SearchWorker *w, int ply, const Move *m)
{
    assert(ply >= 0 && ply < MAX_PLY);
    SearchStack *ss = &w->stack[ply];
    ss->pv[0] = *m;
    int n = ss[1].pvlen;
    if (n > MAX_PLY - 1)
        n = MAX_PLY - 1;
    memcpy(&ss->pv[1], ss[1].pv, (size_t)n * sizeof(Move));
    ss->pvlen = n + 1;
}

// Quiescence: captures are compulsory, so a position with a capture is never scored
// statically. When the opponent threatens a capture, the first quiescence ply tries every
// quiet move instead of trusting the static score.
static Score qsearch(SearchWorker *w, const Board *b, Score alpha, Score beta, int ply, int qply)
{
    assert(ply >= 0 && ply < MAX_PLY && alpha < beta);
    w->stack[ply].pvlen = 0;
    count_node(w, ply);
    if (stopped(w))
        return 0;
    if (ply >= MAX_PLY - 1)
        return evaluate(w, b, ply);

    bool capture = movegen_has_capture(b);
    Score best = -SCORE_INF;
    Bound db_bound;
    if (!capture && probe_egdb(w, b, ply, &best, &db_bound))
        return best; // once the captures have resolved, the databases know the rest
    if (!capture) {
        best = evaluate(w, b, ply);
        if (best >= beta || qply > 0 || !movegen_opponent_has_capture(b))
            return best;
        if (best > alpha)
            alpha = best;
        best = -SCORE_INF; // the threat is resolved by searching every move: no stand pat
    }
    MoveList list;
    int n = movegen_all(b, &list);
    if (n == 0)
        return -SCORE_WIN + ply;
    int32_t scores[MAX_MOVES];
    movepick_score(&w->mh, b, &list, 0, w->stack[ply].killers, scores);
    for (int i = 0; i < n; i++) {
        movepick_next(&list, scores, i);
        Board child = *b;
        board_play(&child, &list.moves[i]);
        assert(board_is_ok(&child));
        push(w, b, &list.moves[i], &child, ply);
        Score s = -qsearch(w, &child, -beta, -alpha, ply + 1, qply + (capture ? 0 : 1));
        if (stopped(w))
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                update_pv(w, ply, &list.moves[i]);
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}

static Score search(SearchWorker *w, const Board *b, Score alpha, Score beta, Depth depth, int ply,
                    bool pv_node);

// A node of the main search while it is searched: its window and depth as the steps change
// them, and what the steps before the move loop learned of it.
typedef struct Node {
    const Board *b;
    Score alpha, beta;
    Depth depth;
    int ply;
    bool pv_node;
    bool marked;       // another thread is searching this position too (breadcrumbs)
    uint16_t excluded; // the move left out here (the singular test), 0 if none
    bool tt_hit;
    TTData tt;
    Bound db_bound;  // BOUND_NONE, or what a database value of this node bounds
    Score db;        // that value: a win's is a floor, a loss's a ceiling of the node's score
    Score ev;        // the static score, EVAL_NONE when a capture is due
    bool quiet;      // no capture for the side to move
    bool improving;  // the static score rose since two plies before
    bool prunable;   // a quiet non-PV node with no threat and no database bound
    uint16_t extend; // the move searched one ply deeper (singular extension), 0 if none
    int n;           // the legal moves
    MoveList list;
} Node;

// Steps 1 to 3, before any move is generated. True when the node ends here, its score in
// *out.
static bool node_ends_early(SearchWorker *w, Node *nd, Score *out)
{
    const Board *b = nd->b;
    int ply = nd->ply;
    // Step 1. Draws and mate distance.
    if (is_draw(w, b, ply))
        return *out = 0, true;
    if (ply >= MAX_PLY - 1)
        return *out = evaluate(w, b, ply), true;
    if (nd->alpha < -SCORE_WIN + ply)
        nd->alpha = -SCORE_WIN + ply;
    if (nd->beta > SCORE_WIN - ply - 1)
        nd->beta = SCORE_WIN - ply - 1;
    if (nd->alpha >= nd->beta)
        return *out = nd->alpha, true;

    // Step 2. Transposition table. A search that leaves a move out (the singular test below)
    // takes no cutoff from the table and stores nothing: the entry is the full node's.
    nd->excluded = w->stack[ply].excluded;
    TTData *tt = &nd->tt;
    nd->tt_hit = tt_probe(w->sh->tt, b->key, tt);
    if (nd->tt_hit) {
        tt->score = score_from_tt(tt->score, ply);
        if (!nd->pv_node && !nd->excluded && tt->depth >= nd->depth &&
            ((tt->bound == BOUND_LOWER && tt->score >= nd->beta) ||
             (tt->bound == BOUND_UPPER && tt->score <= nd->alpha) || tt->bound == BOUND_EXACT))
            return *out = tt->score, true;
    }

    // Step 3. Endgame databases: a quiet position of few enough pieces has its value under the
    // game's counters (positions with a capture pending are searched on). A draw, a win at or
    // above beta and a loss at or below alpha end the node, and so does any value when the root
    // is not in the databases itself (there the search only needs to know the ending is won).
    // Otherwise the window asks whether the win is shorter than the databases can say: a win is
    // searched on with its score as a floor (like a stand-pat), a loss with its score as a
    // ceiling.
    nd->db_bound = BOUND_NONE;
    if (!nd->excluded && probe_egdb(w, b, ply, &nd->db, &nd->db_bound)) {
        if (nd->db_bound == BOUND_EXACT || !w->egdb_root ||
            (nd->db_bound == BOUND_LOWER && nd->db >= nd->beta) ||
            (nd->db_bound == BOUND_UPPER && nd->db <= nd->alpha))
            return *out = nd->db, true;
        if (nd->db_bound == BOUND_LOWER)
            nd->alpha = nd->db;
        else
            nd->beta = nd->db;
    }
    return false;
}

// Steps 4 to 6: the moves, the single-reply extension and the static score. True when the
// node ends here (no legal move), its score in *out.
static bool node_moves_and_eval(SearchWorker *w, Node *nd, Score *out)
{
    const Board *b = nd->b;
    int ply = nd->ply;
    // Step 4. Moves; none means the side to move has lost.
    nd->n = movegen_all(b, &nd->list);
    if (nd->n == 0)
        return *out = -SCORE_WIN + ply, true;

    // Step 5. Extension: a single legal reply (often a forced capture) costs no depth.
    if (nd->n == 1 && ply < 2 * w->root_depth)
        nd->depth++;

    // Step 6. Static score. Only a quiet position (no capture for the side to move) has one;
    // a pending capture for the opponent (a threat) disables the pruning below.
    nd->quiet = !nd->list.moves[0].captured;
    nd->ev = EVAL_NONE;
    if (nd->quiet)
        nd->ev = nd->tt_hit && nd->tt.eval != EVAL_NONE ? nd->tt.eval : evaluate(w, b, ply);
    w->stack[ply].eval = nd->ev;
    nd->improving = nd->ev != EVAL_NONE && ply >= 2 &&
                    (w->stack[ply - 2].eval == EVAL_NONE || nd->ev > w->stack[ply - 2].eval);
    nd->prunable = nd->quiet && !nd->pv_node && !nd->excluded && nd->db_bound == BOUND_NONE &&
                   nd->beta > -SCORE_WIN_MIN && nd->beta < SCORE_WIN_MIN &&
                   !movegen_opponent_has_capture(b); // the threat test last: it costs most
    return false;
}

// Steps 7 to 9: reverse futility, internal iterative reduction and the singular extension.
// True when the node ends here, its score in *out.
static bool node_prunes(SearchWorker *w, Node *nd, Score *out)
{
    const TTData *tt = &nd->tt;
    // Step 7. Reverse futility: far above beta at low depth, in a quiet position without a
    // threat, a fail high is taken on the static score. Not a null move: zugzwang is common in
    // draughts, but a margin per ply of depth covers it in quiet positions.
    if (nd->prunable && nd->depth <= RFP_MAX_DEPTH &&
        nd->ev - RFP_MARGIN * (nd->depth - nd->improving) >= nd->beta)
        return *out = nd->ev, true;

    // Step 8. Without a TT move a deep node is searched one ply shallower (internal iterative
    // reduction): its next visit finds a move to try first.
    if (nd->depth >= IIR_MIN_DEPTH && !(nd->tt_hit && tt->move))
        nd->depth--;

    // Step 9. Singular extension: when every other move, searched at half depth, falls short
    // of the TT score by a margin, the TT move is searched one ply deeper; when even they reach
    // beta, the node fails high (multi-cut).
    nd->extend = 0;
    if (nd->depth >= SE_MIN_DEPTH && !nd->excluded && nd->n > 1 && nd->tt_hit && tt->move &&
        tt->bound != BOUND_UPPER && tt->depth >= nd->depth - 3 && tt->score > -SCORE_EGDB_MIN &&
        tt->score < SCORE_EGDB_MIN && nd->ply < 2 * w->root_depth) {
        Score sbeta = tt->score - SE_MARGIN * nd->depth;
        w->stack[nd->ply].excluded = tt->move;
        Score s = search(w, nd->b, sbeta - 1, sbeta, (nd->depth - 1) / 2, nd->ply, false);
        w->stack[nd->ply].excluded = 0;
        if (stopped(w))
            return *out = 0, true;
        if (s < sbeta)
            nd->extend = tt->move;
        else if (sbeta >= nd->beta)
            return *out = sbeta, true;
    }
    return false;
}

// Late-move reduction of the i-th move m (a late quiet move): more away from the PV and when
// the static score is falling, less for killers and moves of good history.
static Depth reduction(const SearchWorker *w, const Node *nd, const Move *m, int i, int32_t score,
                       Depth new_depth)
{
    Depth r = lmr_table[nd->depth < 64 ? nd->depth : 63][i];
    r += !nd->pv_node && !nd->improving;
    r += nd->marked; // another thread is searching this node too
    r -= nd->pv_node;
    r -= score >= MOVEPICK_KILLER;
    r -= movepick_history(&w->mh, nd->b, m) / (MOVEPICK_HISTORY_MAX / 2);
    if (r < 0)
        r = 0;
    if (r > new_depth - 1)
        r = new_depth - 1;
    return r;
}

// Searches child, the position after the i-th move m: the first move with the full window,
// the others with a null window (reduced first when late and quiet), then the full window on
// a PV node when they land inside it.
static Score search_child(SearchWorker *w, const Node *nd, const Board *child, const Move *m, int i,
                          int32_t score)
{
    Depth new_depth = nd->depth - 1 + (nd->extend && move_code(m) == nd->extend);
    Score alpha = nd->alpha, beta = nd->beta;
    int ply = nd->ply;
    if (i == 0)
        return -search(w, child, -beta, -alpha, new_depth, ply + 1, nd->pv_node);
    bool promotes = (m->flags & MOVE_PROMOTES) != 0;
    Depth r = 0;
    if (nd->depth >= LMR_MIN_DEPTH && i >= LMR_MIN_MOVES && nd->quiet && !promotes)
        r = reduction(w, nd, m, i, score, new_depth);
    Score s = -search(w, child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
    if (s > alpha && r > 0)
        s = -search(w, child, -alpha - 1, -alpha, new_depth, ply + 1, false);
    if (s > alpha && s < beta && nd->pv_node)
        s = -search(w, child, -beta, -alpha, new_depth, ply + 1, true);
    return s;
}

// Step 11. Stores the node's result in the TT (not for a search that left a move out: the
// entry is the full node's) and returns it. A database loss searched to no lower score is
// that loss (its ceiling).
static Score node_store(SearchWorker *w, const Node *nd, Score best, const Move *best_move,
                        Score orig_alpha)
{
    if (nd->excluded)
        return best_move ? best : nd->alpha;
    if (nd->db_bound == BOUND_UPPER && best > nd->db)
        best = nd->db;
    Bound bound = best >= nd->beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(w->sh->tt, nd->b->key, best_move ? move_code(best_move) : 0,
             score_to_tt(best, nd->ply), nd->ev, nd->depth, bound);
    assert(is_score(best));
    return best;
}

// Step 10. Searches the moves, best-ordered first, then stores the result (step 11).
static Score search_moves(SearchWorker *w, Node *nd)
{
    const Board *b = nd->b;
    int ply = nd->ply, n = nd->n;
    MoveList *list = &nd->list;
    int32_t scores[MAX_MOVES];
    movepick_score(&w->mh, b, list, nd->tt_hit ? nd->tt.move : 0, w->stack[ply].killers, scores);
    Score best = nd->db_bound == BOUND_LOWER ? nd->db : -SCORE_INF, orig_alpha = nd->alpha;
    Move best_move = {0};
    bool has_best = false;
    bool futile = nd->prunable && nd->depth <= FUTILITY_MAX_DEPTH &&
                  nd->ev + FUTILITY_MARGIN * nd->depth <= nd->alpha;
    // Not when the side to move has a king: a king has many quiet moves, the move counts
    // above are for men, and wins with kings (often quiet king manoeuvres) were found plies late.
    bool own_king = (b->pieces[b->side] & b->kings) != 0;
    int lmp = nd->prunable && !own_king && nd->depth <= LMP_MAX_DEPTH
                  ? lmp_count(nd->depth, nd->improving)
                  : MAX_MOVES;
    movepick_next(list, scores, 0);
    for (int i = 0; i < n; i++) {
        // Moves are picked one ahead, so that the next one's TT bucket can be fetched early.
        if (i + 1 < n)
            movepick_next(list, scores, i + 1);
        const Move *m = &list->moves[i];
        if (nd->excluded && move_code(m) == nd->excluded)
            continue;
        // Late quiet moves at low depth are not searched at all (late-move and futility
        // pruning), once a move has been searched and no forced loss is on the board.
        if (i > 0 && !(m->flags & MOVE_PROMOTES) && best > -SCORE_WIN_MIN && (futile || i >= lmp))
            continue;
        Board child = *b;
        board_play(&child, m);
        assert(board_is_ok(&child));
        // The next move's TT bucket is fetched now, while this move's subtree is searched.
        if (i == 0)
            tt_prefetch(w->sh->tt, child.key);
        if (i + 1 < n)
            tt_prefetch(w->sh->tt, board_key_after(b, &list->moves[i + 1]));
        push(w, b, m, &child, ply);
        Score s = search_child(w, nd, &child, m, i, scores[i]);
        if (stopped(w))
            return 0;
        if (s <= best)
            continue;
        best = s;
        best_move = *m;
        has_best = true;
        if (s <= nd->alpha)
            continue;
        nd->alpha = s;
        if (nd->pv_node)
            update_pv(w, ply, m);
        if (s >= nd->beta) {
            if (!m->captured)
                movepick_update(&w->mh, b, m, w->stack[ply].killers, nd->depth, list, i);
            break;
        }
    }
    return node_store(w, nd, best, has_best ? &best_move : NULL, orig_alpha);
}

// One node of the main search (depth > 0; search() below sends depth 0 to qsearch and sets
// `marked` when another thread is searching this position too), as the steps above.
static Score search_node(SearchWorker *w, const Board *b, Score alpha, Score beta, Depth depth,
                         int ply, bool pv_node, bool marked)
{
    assert(ply >= 0 && ply < MAX_PLY);
    assert(alpha < beta && depth > 0);
    w->stack[ply].pvlen = 0;
    count_node(w, ply);
    if (stopped(w))
        return 0;
    // Set field by field: an initializer would clear the move list (6 KB) at every node.
    Node nd;
    nd.b = b, nd.alpha = alpha, nd.beta = beta, nd.depth = depth, nd.ply = ply;
    nd.pv_node = pv_node, nd.marked = marked;
    nd.tt = (TTData){0};
    Score out;
    if (node_ends_early(w, &nd, &out) || node_moves_and_eval(w, &nd, &out) ||
        node_prunes(w, &nd, &out))
        return out;
    return search_moves(w, &nd);
}

// Breadcrumbs (Lazy SMP). In the first plies each thread marks the node it is searching; a
// thread that finds another thread's mark on the same position reduces its late moves one ply
// more there, so that two threads in step on one subtree drift apart.
enum { CRUMB_PLIES = 8 };

static Score search(SearchWorker *w, const Board *b, Score alpha, Score beta, Depth depth, int ply,
                    bool pv_node)
{
    if (depth <= 0)
        return qsearch(w, b, alpha, beta, ply, 0);
    if (ply >= CRUMB_PLIES || w->sh->thread_count == 1)
        return search_node(w, b, alpha, beta, depth, ply, pv_node, false);
    _Atomic uint64_t *slot = &w->sh->crumbs[b->key & (SEARCH_CRUMB_SLOTS - 1)];
    uint64_t mine = (b->key & ~(uint64_t)0xFF) | (uint64_t)(w->id % 255 + 1);
    uint64_t seen = atomic_load_explicit(slot, memory_order_relaxed);
    bool owner = false, marked = false;
    if (seen == 0)
        owner = atomic_compare_exchange_strong_explicit(slot, &seen, mine, memory_order_relaxed,
                                                        memory_order_relaxed);
    else
        marked = seen != mine && (seen ^ b->key) <= 0xFF;
    Score s = search_node(w, b, alpha, beta, depth, ply, pv_node, marked);
    if (owner)
        atomic_store_explicit(slot, 0, memory_order_relaxed);
    return s;
}

// Searches the root moves from w->pv_index on; keeps each move's score and PV.
static Score search_root(SearchWorker *w, Score alpha, Score beta, Depth depth)
{
    const Board *b = &w->sh->root;
    Score best = -SCORE_INF;
    w->stack[0].pvlen = 0;
    count_node(w, 0);
    for (int i = w->pv_index; i < w->nroots; i++) {
        RootMove *rm = &w->roots[i];
        Board child = *b;
        board_play(&child, &rm->move);
        assert(board_is_ok(&child));
        push(w, b, &rm->move, &child, 0);
        Depth nd = depth - 1;
        if (w->nroots == 1)
            nd++; // a forced move: look one ply further
        Score s;
        if (i == w->pv_index) {
            s = -search(w, &child, -beta, -alpha, nd, 1, true);
        } else {
            s = -search(w, &child, -alpha - 1, -alpha, nd, 1, false);
            if (s > alpha && s < beta)
                s = -search(w, &child, -beta, -alpha, nd, 1, true);
        }
        if (stopped(w))
            break;
        if (i == w->pv_index || s > alpha) {
            rm->score = s;
            rm->seldepth = w->seldepth;
            rm->bound = s >= beta ? BOUND_LOWER : s <= alpha ? BOUND_UPPER : BOUND_EXACT;
            rm->pv[0] = rm->move;
            int n = w->stack[1].pvlen < MAX_PLY - 1 ? w->stack[1].pvlen : MAX_PLY - 1;
            memcpy(&rm->pv[1], w->stack[1].pv, (size_t)n * sizeof(Move));
            rm->pvlen = n + 1;
            // A new best move in the middle of an iteration is reported at once (after the
            // first half second, so that short searches do not flood the output).
            if (w->id == 0 && i > w->pv_index && s > alpha && s < beta &&
                search_elapsed_ms(w->sh) >= REPORT_NEW_BEST_MS)
                report_move(w, depth, rm, w->pv_index, BOUND_EXACT);
        } else {
            rm->score = -SCORE_INF; // not better than the lines above: sorted after them
        }
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}

// Stable sort of roots[from..] by score, best first.
static void sort_roots(SearchWorker *w, int from)
{
    for (int i = from + 1; i < w->nroots; i++) {
        RootMove tmp = w->roots[i];
        int j = i;
        while (j > from && w->roots[j - 1].score < tmp.score) {
            w->roots[j] = w->roots[j - 1];
            j--;
        }
        w->roots[j] = tmp;
    }
}

static void init_roots(SearchWorker *w)
{
    SearchShared *sh = w->sh;
    MoveList list;
    movegen_all(&sh->root, &list);
    w->nroots = 0;
    for (int i = 0; i < list.count; i++) {
        bool wanted = sh->limits.nsearchmoves == 0;
        for (int k = 0; k < sh->limits.nsearchmoves && !wanted; k++)
            wanted = move_same(&list.moves[i], &sh->limits.searchmoves[k]);
        if (!wanted)
            continue;
        RootMove *rm = &w->roots[w->nroots++];
        memset(rm, 0, sizeof *rm);
        rm->move = list.moves[i];
        rm->score = rm->prev_score = -SCORE_INF;
        rm->pv[0] = rm->move;
        rm->pvlen = 1;
    }
}

static void init_worker(SearchWorker *w, SearchShared *sh)
{
    w->sh = sh; // (node count and seldepth: zeroed by search_worker_reset_counts)
    w->completed = 0;
    w->nskill_lines = 0;
    w->reported_depth = 0;
    int n = sh->history_len < MAX_GAME_PLIES ? sh->history_len : MAX_GAME_PLIES;
    memcpy(w->keys, sh->history + (sh->history_len - n), (size_t)n * sizeof(Key));
    w->key_base = n;
    w->keys[n] = sh->root.key;
    w->egdb_root = sh->egdb &&
                   __builtin_popcountll(sh->root.pieces[0] | sh->root.pieces[1]) <= sh->egdb_pieces;
    w->stack[0].counters = sh->root_counters;
    if (sh->net)
        net_refresh(sh->net, &sh->root, &w->stack[0].acc);
    w->stack[0].eval = w->stack[1].eval = EVAL_NONE;
    for (int i = 0; i < MAX_PLY + 2; i++)
        w->stack[i].excluded = 0;
    init_roots(w);
}

// Aspiration loop for one MultiPV line at one depth. Returns false when stopped.
static bool search_line(SearchWorker *w, Depth depth, int line, bool is_main)
{
    Score prev = w->roots[line].prev_score, delta = ASPIRATION_DELTA;
    Score alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= ASPIRATION_DEPTH && prev > -SCORE_WIN_MIN && prev < SCORE_WIN_MIN) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    for (;;) {
        w->pv_index = line;
        Score s = search_root(w, alpha, beta, depth);
        sort_roots(w, line);
        if (stopped(w))
            return false;
        if (s <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = s - delta > -SCORE_INF ? s - delta : -SCORE_INF;
            if (is_main && search_elapsed_ms(w->sh) > REPORT_BOUND_MS)
                report_line(w, depth, line, BOUND_UPPER);
        } else if (s >= beta) {
            beta = s + delta < SCORE_INF ? s + delta : SCORE_INF;
            if (is_main && search_elapsed_ms(w->sh) > REPORT_BOUND_MS)
                report_line(w, depth, line, BOUND_LOWER);
        } else {
            return true;
        }
        delta += delta;
        if (delta > ASPIRATION_MAX) {
            alpha = -SCORE_INF;
            beta = SCORE_INF;
        }
    }
}

// ---- Skill Level -------------------------------------------------------------------------------
// A weakened level searches a few best lines to a shallower depth, adds to each line's score an
// error drawn from a normal distribution, and plays the line that scores best with it. Lines
// that lose by force are left out unless every line does: a weak player still sees a lost
// position, and never reaches one the search has seen through. The figures are first choice;
// the Elo of each level is measured (bench/RESULTS.md, "Levels").
enum {
    SKILL_NOISE_FULL = 200, // centi-men of error at level 0, falling linearly to 0 at SKILL_FULL
    SKILL_CLAMP = 1000,     // scores (wins, database results) are clamped to +/- this first
};

Depth search_skill_depth(int level) { return (Depth)(1 + level); }

int search_skill_lines(int level) { return 4 + (SKILL_FULL - level) * 4 / SKILL_FULL; }

int search_skill_noise(int level) { return SKILL_NOISE_FULL * (SKILL_FULL - level) / SKILL_FULL; }

static bool lost(Score s) { return s <= -SCORE_WIN_MIN || verdict_band(s) < 0; }

// A standard normal draw (Box-Muller) from the xorshift generator *rng.
static double normal_draw(uint64_t *rng)
{
    double u[2];
    for (int i = 0; i < 2; i++) {
        u[i] = ((double)(util_random(rng) >> 11) + 0.5) / 9007199254740992.0; // in (0, 1)
    }
    return sqrt(-2.0 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

// The index of the line a weakened level plays among w's snapshot of the best lines.
static int skill_pick(const SearchWorker *w)
{
    const SearchLimits *l = &w->sh->limits;
    int level = SKILL_FULL - l->weakness;
    double sigma = search_skill_noise(level);
    uint64_t rng = l->skill_rng | 1;
    bool all_lost = lost(w->skill_lines[0].score);
    int pick = 0;
    double best = -1e9;
    for (int i = 0; i < w->nskill_lines; i++) {
        Score s = w->skill_lines[i].score;
        double noise = normal_draw(&rng) * sigma;
        if (lost(s) && !all_lost)
            continue;
        double v = (s > SKILL_CLAMP ? SKILL_CLAMP : s < -SKILL_CLAMP ? -SKILL_CLAMP : s) + noise;
        if (v > best) {
            best = v;
            pick = i;
        }
    }
    return pick;
}

static void finish_main(SearchWorker *w)
{
    SearchShared *sh = w->sh;
    atomic_store(&sh->stop, true);
    if (w->nroots == 0) {
        sh->has_best = sh->has_ponder = false;
        return;
    }
    if (sh->limits.weakness > 0 && w->nskill_lines > 0) {
        report_set_result(sh, &w->skill_lines[skill_pick(w)], w->completed);
        return;
    }
    const RootMove *rm = &w->roots[0];
    // A move or score other than the last completed iteration's comes from the unfinished one.
    bool from_completed = move_same(&rm->move, &w->completed_root.move) &&
                          report_root_score(rm) == w->completed_root.score;
    report_set_result(sh, rm, from_completed ? w->completed : w->root_depth);
    if (sh->limits.multipv <= 1)
        report_result(w, sh->best_depth, rm, from_completed ? BOUND_EXACT : rm->bound);
}

// The deepest iteration the limits allow: `go depth`, else for `go mate N` 2N plies (a win
// in N moves is at most 2N - 1 plies deep), else the stack's.
static Depth deepest_iteration(const SearchLimits *l)
{
    Depth max_depth = l->depth > 0 && l->depth < MAX_PLY - 1 ? l->depth : MAX_PLY - 1;
    if (l->mate > 0 && l->depth == 0 && 2 * l->mate < max_depth)
        max_depth = 2 * l->mate;
    return max_depth;
}

// Records iteration d as completed by w: its best line, and the deepest iteration any thread
// has completed.
static void complete_iteration(SearchWorker *w, Depth d)
{
    w->completed = d;
    w->completed_root = w->roots[0];
    if (w->id == 0 && w->sh->limits.weakness > 0) {
        int n = w->sh->limits.multipv < w->nroots ? w->sh->limits.multipv : w->nroots;
        w->nskill_lines = n < SKILL_LINES_MAX ? n : SKILL_LINES_MAX;
        memcpy(w->skill_lines, w->roots, (size_t)w->nskill_lines * sizeof(RootMove));
    }
    int prev = atomic_load(&w->sh->completed_depth);
    while (prev < d && !atomic_compare_exchange_weak(&w->sh->completed_depth, &prev, d))
        ;
}

void search_run(SearchWorker *w, SearchShared *sh)
{
    pthread_once(&lmr_once, build_lmr);
    init_worker(w, sh);
    bool is_main = w->id == 0;
    if (w->nroots == 0) {
        if (is_main)
            finish_main(w);
        return;
    }
    // In a node-limited search helpers start once the main thread has completed depth 1 (it
    // always does, to have a move): else they could spend a small budget before it, and the
    // search would overshoot the limit by the main thread's first iteration.
    while (!is_main && sh->limits.nodes &&
           atomic_load_explicit(&sh->completed_depth, memory_order_acquire) < 1 &&
           !atomic_load_explicit(&sh->stop, memory_order_relaxed))
        platform_yield();
    int lines = sh->limits.multipv < 1 ? 1 : sh->limits.multipv;
    if (lines > w->nroots)
        lines = w->nroots;
    Depth max_depth = deepest_iteration(&sh->limits);
    Move last_best = w->roots[0].move;
    TimeIterations iters = {0};
    // A single legal move is played at once, unless analysing or pondering.
    bool instant = w->nroots == 1 && !sh->limits.analysis && !sh->limits.infinite &&
                   !sh->limits.ponder && sh->budget.soft_ms >= 0;
    if (instant && is_main)
        sh->budget = timeman_instant(sh->budget);
    for (Depth depth = 1; depth <= max_depth && !stopped(w); depth++) {
        // Lazy SMP: no thread repeats an iteration another has completed (single line), and
        // helpers with an odd id search one ply deeper for diversity.
        int done = atomic_load_explicit(&sh->completed_depth, memory_order_relaxed);
        if (lines == 1 && done >= depth && w->completed > 0)
            depth = done + 1; // (the main thread's first iteration is always depth 1)
        if (depth > max_depth)
            break;
        Depth d = is_main ? depth : depth + (w->id & 1);
        w->root_depth = d;
        for (int i = 0; i < w->nroots; i++)
            w->roots[i].prev_score = w->roots[i].score;
        bool complete = true;
        for (int line = 0; line < lines && complete; line++)
            complete = search_line(w, d, line, is_main);
        if (!complete)
            break;
        complete_iteration(w, d);
        if (!is_main)
            continue;
        for (int line = 0; line < lines; line++)
            report_line(w, d, line, BOUND_EXACT);

        // Time, mate and single-move limits: timeman decides whether to go on.
        IterationEnd it = {.elapsed_ms = search_elapsed_ms(sh),
                           .pondering = atomic_load(&sh->pondering),
                           .best_changed = !move_same(&last_best, &w->roots[0].move),
                           .score = w->roots[0].score,
                           .instant = instant,
                           .depth = d,
                           .mate_moves = win_moves(w->roots[0].score),
                           .mate_limit = sh->limits.mate};
        last_best = w->roots[0].move;
        if (timeman_stop_after_iteration(&iters, &sh->budget, &it))
            break;
    }
    search_publish(w);
    if (is_main)
        finish_main(w);
}
