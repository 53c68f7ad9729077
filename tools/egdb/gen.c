// SPDX-License-Identifier: MIT
// damka-egdb: builds the endgame databases of every balance of up to N pieces by retrograde
// analysis, exactly under the rules (compulsory capture, men move forward, the draw counters of
// 7.2 through the value's counter budget; see include/egdb.h).
//
// Order: fewer pieces first; within a piece count, fewer men first. A capture leads to fewer
// pieces and a promotion to fewer men, so every move that leaves a balance lands in a finished
// one; inside a balance only quiet king moves and men's steps remain, solved together:
//   1. every position is valued from the moves that leave the balance (captures are all such:
//      a position with a capture pending is final at once), and counts its moves that stay;
//   2. levels of budget, highest first: each position decided at level t gives its
//      predecessors (unmoves) a win of budget t - 1 (when it is lost for its side to move), or
//      takes one from their count of moves not yet known to lose (when it is won); a count that
//      reaches zero is a loss of budget t - 1. Budgets are capped by the position's counter
//      limit (10 or 30 plies). The first level that reaches a position gives its best budget.
//   3. what is left is drawn.
// Each finished balance is written to DIR at once; a run that is stopped continues where it
// was (finished files are read back, checked, and not built again).
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "board.h"
#include "cluster.h"
#include "egdb.h"
#include "engine.h"
#include "notation.h"
#include "util.h"
#include "verdict.h"

enum {
    UNKNOWN = 254,   // not decided yet (EGDB_NONE = 255 marks holes)
    NEVER = 255,     // count of a position that can never be lost (it has a way out)
    CHUNK = 1 << 14, // positions a thread takes at once
    THREADS_MAX = 64,
    SLOTS = EGDB_PIECES_MAX + 1,
    UNMOVES_MAX = 128,
};

// The values of the finished balances and the one being solved, of each model (the loose
// table of a balance of kings alone is its strict one).
static _Atomic uint8_t *g_values[EGDB_KINDS][SLOTS][SLOTS][SLOTS][SLOTS];

static uint8_t win(int f) { return (uint8_t)(EGDB_WIN + f); }
static uint8_t loss(int f) { return (uint8_t)(EGDB_LOSS + f); }

// The value in model `kind` of any position of a finished balance, or of one with a capture
// pending (valued from its captures, which lead to finished balances).
static int value_of(EgdbKind kind, const Board *q)
{
    if (!q->pieces[q->side])
        return loss(EGDB_F_ANY); // no piece left: no move
    MoveList list;
    int n = engine_moves_of(q, &list);
    if (n == 0)
        return loss(EGDB_F_ANY);
    if (list.moves[0].captured) {
        // A capture resets the counter: only the results of the captures count.
        bool all_lost = true;
        for (int i = 0; i < n; i++) {
            Board r = *q;
            board_play(&r, &list.moves[i]);
            int v = value_of(kind, &r);
            if (egdb_is_loss(v))
                return win(egdb_counter_limit(q) - 1);
            all_lost &= egdb_is_win(v);
        }
        return all_lost ? loss(egdb_counter_limit(q) - 1) : EGDB_DRAW;
    }
    EgdbMaterial m = egdb_material_of(q);
    uint64_t idx;
    _Atomic uint8_t *vals = g_values[kind][m.wm][m.wk][m.bm][m.bk];
    if (!vals || !egdb_index(q, &idx))
        return EGDB_DRAW; // cannot happen for the balances built in order
    return atomic_load_explicit(&vals[idx], memory_order_relaxed);
}

// ---- One balance ----------------------------------------------------------------------------

typedef struct Job {
    EgdbMaterial m;
    EgdbKind kind; // the model solved (the loose one only under 7.2.4/7.2.8: see solve_loose)
    uint64_t n;
    _Atomic uint8_t *vals;
    _Atomic uint8_t *count;
    _Atomic uint64_t next; // next chunk to take
    int level;             // the level being spread (0: the first pass)
    _Atomic uint64_t decided;
    _Atomic uint64_t at_level[EGDB_F_ANY + 1]; // positions decided with each budget
} Job;

static void count_level(Job *j, uint8_t v)
{
    atomic_fetch_add_explicit(&j->decided, 1, memory_order_relaxed);
    if (egdb_is_win(v) || egdb_is_loss(v))
        atomic_fetch_add_explicit(&j->at_level[egdb_budget(v)], 1, memory_order_relaxed);
}

// The moves of p (a quiet position) that leave what is being solved, whose results are known:
// promotions (they leave the balance), and with men_leave the men's steps too (in the loose
// model they leave the men placement). Returns p's value if they settle it, else UNKNOWN with
// *count the moves that stay (NEVER when a way out draws). Every exit resets the counter.
static uint8_t settle_by_exits(EgdbKind kind, bool men_leave, const Board *p, const MoveList *list,
                               int n, uint8_t *count)
{
    int cap = egdb_counter_limit(p) - 1;
    bool all_lost = true;
    *count = 0;
    for (int i = 0; i < n; i++) {
        bool promotes = list->moves[i].flags & MOVE_PROMOTES;
        if (!promotes && !men_leave) {
            (*count)++;
            continue;
        }
        Board q = *p;
        board_play(&q, &list->moves[i]);
        if (!promotes && q.kings != p->kings) { // a king's move stays
            (*count)++;
            continue;
        }
        int r = value_of(kind, &q);
        if (egdb_is_loss(r))
            return win(cap);
        all_lost &= egdb_is_win(r);
    }
    if (*count == 0)
        return all_lost ? loss(cap) : EGDB_DRAW;
    if (!all_lost)
        *count = NEVER;
    return UNKNOWN;
}

static void first_pass(Job *j, uint64_t idx)
{
    Board p;
    if (!egdb_unindex(j->m, idx, &p)) {
        atomic_store_explicit(&j->vals[idx], EGDB_NONE, memory_order_relaxed);
        return;
    }
    MoveList list;
    int n = engine_moves_of(&p, &list);
    uint8_t v, count = 0;
    if (n == 0 || list.moves[0].captured)
        v = (uint8_t)value_of(j->kind, &p);
    else
        v = settle_by_exits(j->kind, false, &p, &list, n, &count);
    atomic_store_explicit(&j->vals[idx], v, memory_order_relaxed);
    atomic_store_explicit(&j->count[idx], count, memory_order_relaxed);
    if (v != UNKNOWN)
        count_level(j, v);
}

// Sets position idx to v if it is still undecided.
static void decide(Job *j, uint64_t idx, uint8_t v)
{
    uint8_t expect = UNKNOWN;
    if (atomic_compare_exchange_strong_explicit(&j->vals[idx], &expect, v, memory_order_relaxed,
                                                memory_order_relaxed))
        count_level(j, v);
}

// Position idx was decided at level t: its predecessors learn from it.
static void spread(Job *j, uint64_t idx, int t)
{
    Board q, pred[UNMOVES_MAX];
    if (!egdb_unindex(j->m, idx, &q))
        return;
    int v = atomic_load_explicit(&j->vals[idx], memory_order_relaxed);
    bool q_lost = egdb_is_loss(v);
    int n = egdb_unmoves(&q, pred, UNMOVES_MAX);
    for (int i = 0; i < n; i++) {
        uint64_t pi;
        if (!egdb_index(&pred[i], &pi) ||
            atomic_load_explicit(&j->vals[pi], memory_order_relaxed) != UNKNOWN)
            continue;
        int cap = egdb_counter_limit(&pred[i]) - 1;
        int f = t == EGDB_F_ANY ? cap : (t - 1 < cap ? t - 1 : cap);
        if (q_lost) {
            if (f >= 0)
                decide(j, pi, win(f));
            continue;
        }
        // q is won for its side to move: this move of pred loses, with budget f.
        uint8_t c = atomic_load_explicit(&j->count[pi], memory_order_relaxed);
        if (c == NEVER)
            continue;
        if (f < 0) { // a way out: the counter runs out before this win
            atomic_store_explicit(&j->count[pi], NEVER, memory_order_relaxed);
            continue;
        }
        if (atomic_fetch_sub_explicit(&j->count[pi], 1, memory_order_relaxed) == 1)
            decide(j, pi, loss(f));
    }
}

static void *worker(void *arg)
{
    Job *j = arg;
    for (;;) {
        uint64_t c = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
        uint64_t from = c * CHUNK, to = from + CHUNK < j->n ? from + CHUNK : j->n;
        if (from >= j->n)
            break;
        for (uint64_t i = from; i < to; i++) {
            if (j->level == 0) {
                first_pass(j, i);
                continue;
            }
            int v = atomic_load_explicit(&j->vals[i], memory_order_relaxed);
            if ((egdb_is_win(v) || egdb_is_loss(v)) && egdb_budget(v) == j->level)
                spread(j, i, j->level);
        }
    }
    return NULL;
}

// Runs fn(arg) on `threads` threads, the calling one among them, and waits for them all.
static void on_threads(void *(*fn)(void *), void *arg, int threads)
{
    pthread_t tid[THREADS_MAX];
    int started = 0;
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, fn, arg) == 0)
            started++;
    fn(arg);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

static void run_threads(Job *j, int threads, int level)
{
    j->level = level;
    atomic_store(&j->next, 0);
    on_threads(worker, j, threads);
}

// Builds balance m in memory; returns its values (the caller keeps them for later balances).
static _Atomic uint8_t *solve(EgdbMaterial m, EgdbKind kind, int threads, uint64_t *wins,
                              uint64_t *losses)
{
    Job j = {.m = m, .kind = kind, .n = egdb_slice_size(m)};
    j.vals = malloc(j.n);
    j.count = malloc(j.n);
    if (!j.vals || !j.count) {
        free(j.vals), free(j.count);
        return NULL;
    }
    g_values[kind][m.wm][m.wk][m.bm][m.bk] = j.vals; // its captures are read while solving
    run_threads(&j, threads, 0);
    run_threads(&j, threads, EGDB_F_ANY);
    for (int t = EGDB_F_MAX; t >= 1; t--)
        if (atomic_load(&j.at_level[t])) // a level nobody reached has nothing to spread
            run_threads(&j, threads, t);
    *wins = *losses = 0;
    for (uint64_t i = 0; i < j.n; i++) {
        uint8_t v = atomic_load_explicit(&j.vals[i], memory_order_relaxed);
        if (v == UNKNOWN) // counted as a loss before 2026-12-02 (in the progress line only)
            atomic_store_explicit(&j.vals[i], v = EGDB_DRAW, memory_order_relaxed);
        *wins += egdb_is_win(v);
        *losses += egdb_is_loss(v) && v != EGDB_NONE;
    }
    free(j.count);
    return j.vals;
}

// ---- The loose model ----------------------------------------------------------------------
// There a man's step resets the counter (7.2.5), except under 7.2.4/7.2.8, which solve() does
// with the loose values of the balances a move leads to. A man's step raises the men's
// advancement (the ranks every man has come up, summed) by one, so the positions of one
// placement of the men (every king placement, either side to move) depend only on placements
// of more advancement, promotions and captures, all finished first: each placement is solved
// alone, by one thread, with only the kings' moves inside it; placements of equal advancement
// at once on every thread.

typedef struct LooseJob {
    EgdbMaterial m;
    _Atomic uint8_t *vals;
    uint64_t kings;      // king placements of one men placement and side to move
    uint64_t placements; // men placements (white's times black's)
    uint32_t *order;     // the placements, most advanced first
    uint64_t from, to;   // the stretch of order being solved (one advancement)
    _Atomic uint64_t next;
    _Atomic uint64_t wins, losses;
} LooseJob;

typedef struct Scratch {
    uint8_t *count; // moves not yet known to lose, per position of the placement
    uint32_t *link; // positions decided at one budget, as lists
    uint32_t head[EGDB_F_ANY + 1];
} Scratch;

static const uint32_t NO_LINK = UINT32_MAX;

// Global index of position li of placement c (li < kings: White to move).
static uint64_t global_of(const LooseJob *j, uint64_t c, uint64_t li)
{
    uint64_t side = li / j->kings;
    return (side * j->placements + c) * j->kings + li % j->kings;
}

static void loose_decide(LooseJob *j, Scratch *sc, uint64_t c, uint32_t li, uint8_t v)
{
    atomic_store_explicit(&j->vals[global_of(j, c, li)], v, memory_order_relaxed);
    int t = egdb_budget(v);
    sc->link[li] = sc->head[t];
    sc->head[t] = li;
}

// Position li of placement c, decided with budget t: its predecessors by a king move learn
// from it (as spread() does).
static void loose_spread(LooseJob *j, Scratch *sc, uint64_t c, uint32_t li, int t)
{
    Board q, pred[UNMOVES_MAX];
    uint64_t idx = global_of(j, c, li);
    if (!egdb_unindex(j->m, idx, &q))
        return;
    bool q_lost = egdb_is_loss(atomic_load_explicit(&j->vals[idx], memory_order_relaxed));
    int n = egdb_unmoves(&q, pred, UNMOVES_MAX);
    for (int i = 0; i < n; i++) {
        uint64_t pi;
        if (pred[i].kings == q.kings || !egdb_index(&pred[i], &pi)) // a man's step: not here
            continue;
        if (atomic_load_explicit(&j->vals[pi], memory_order_relaxed) != UNKNOWN)
            continue;
        uint32_t lp = (uint32_t)((uint64_t)pred[i].side * j->kings + pi % j->kings);
        int cap = egdb_counter_limit(&pred[i]) - 1;
        int f = t == EGDB_F_ANY ? cap : (t - 1 < cap ? t - 1 : cap);
        if (q_lost) {
            if (f >= 0)
                loose_decide(j, sc, c, lp, win(f));
        } else if (sc->count[lp] != NEVER) {
            if (f < 0)
                sc->count[lp] = NEVER;
            else if (--sc->count[lp] == 0)
                loose_decide(j, sc, c, lp, loss(f));
        }
    }
}

static void solve_placement(LooseJob *j, Scratch *sc, uint64_t c)
{
    uint32_t n = (uint32_t)(2 * j->kings);
    Board p;
    bool hole = !egdb_unindex(j->m, global_of(j, c, 0), &p);
    for (int t = 0; t <= EGDB_F_ANY; t++)
        sc->head[t] = NO_LINK;
    for (uint32_t li = 0; li < n; li++) {
        uint64_t idx = global_of(j, c, li);
        atomic_store_explicit(&j->vals[idx], hole ? EGDB_NONE : UNKNOWN, memory_order_relaxed);
        if (hole || !egdb_unindex(j->m, idx, &p))
            continue;
        MoveList list;
        int moves = engine_moves_of(&p, &list);
        uint8_t v, count = 0;
        if (moves == 0 || list.moves[0].captured)
            v = (uint8_t)value_of(EGDB_LOOSE, &p);
        else
            v = settle_by_exits(EGDB_LOOSE, true, &p, &list, moves, &count);
        sc->count[li] = count;
        if (egdb_is_win(v) || egdb_is_loss(v))
            loose_decide(j, sc, c, li, v);
        else if (v == EGDB_DRAW)
            atomic_store_explicit(&j->vals[idx], v, memory_order_relaxed);
    }
    if (hole)
        return;
    for (int t = EGDB_F_ANY; t >= 1; t--)
        for (uint32_t li = sc->head[t]; li != NO_LINK; li = sc->link[li])
            loose_spread(j, sc, c, li, t); // it decides budgets below t only
    uint64_t wins = 0, losses = 0;
    for (uint32_t li = 0; li < n; li++) {
        uint64_t idx = global_of(j, c, li);
        uint8_t v = atomic_load_explicit(&j->vals[idx], memory_order_relaxed);
        if (v == UNKNOWN)
            atomic_store_explicit(&j->vals[idx], v = EGDB_DRAW, memory_order_relaxed);
        wins += egdb_is_win(v);
        losses += egdb_is_loss(v);
    }
    atomic_fetch_add(&j->wins, wins);
    atomic_fetch_add(&j->losses, losses);
}

static void *loose_worker(void *arg)
{
    LooseJob *j = arg;
    Scratch sc;
    sc.count = malloc(2 * j->kings);
    sc.link = malloc(2 * j->kings * sizeof *sc.link);
    if (!sc.count || !sc.link) {
        fprintf(stderr, "damka-egdb: out of memory\n");
        exit(1);
    }
    for (uint64_t i; (i = j->from + atomic_fetch_add(&j->next, 1)) < j->to;)
        solve_placement(j, &sc, j->order[i]);
    free(sc.count), free(sc.link);
    return NULL;
}

// The men's advancement of placement c (-1 for a hole: men of both colours on one square).
static int advancement(const LooseJob *j, uint64_t c)
{
    Board p;
    return egdb_unindex(j->m, global_of(j, c, 0), &p) ? egdb_men_advancement(&p) : -1;
}

// The loose model of balance m (with men, not under 7.2.4/7.2.8); as solve().
static _Atomic uint8_t *solve_loose(EgdbMaterial m, int threads, uint64_t *wins, uint64_t *losses)
{
    enum { ADVANCE_MAX = 6 * EGDB_PIECES_MAX };
    uint64_t n = egdb_slice_size(m);
    LooseJob j = {.m = m, .placements = egdb_placements(m)};
    j.kings = n / 2 / j.placements;
    j.vals = malloc(n);
    j.order = malloc(j.placements * sizeof *j.order);
    uint64_t at[ADVANCE_MAX + 2] = {0}; // placements of each advancement (+1: holes at 0)
    int *adv = malloc(j.placements * sizeof *adv);
    if (!j.vals || !j.order || !adv) {
        free(j.vals), free(j.order), free(adv);
        return NULL;
    }
    g_values[EGDB_LOOSE][m.wm][m.wk][m.bm][m.bk] = j.vals; // men's steps are read while solving
    for (uint64_t c = 0; c < j.placements; c++)
        at[(adv[c] = advancement(&j, c)) + 1]++;
    // Most advanced first (holes last: they are only marked).
    uint64_t start[ADVANCE_MAX + 2], pos = 0;
    for (int a = ADVANCE_MAX; a >= -1; a--)
        start[a + 1] = pos, pos += at[a + 1];
    uint64_t fill[ADVANCE_MAX + 2];
    memcpy(fill, start, sizeof fill);
    for (uint64_t c = 0; c < j.placements; c++)
        j.order[fill[adv[c] + 1]++] = (uint32_t)c;
    for (int a = ADVANCE_MAX; a >= -1; a--) {
        if (!at[a + 1])
            continue;
        j.from = start[a + 1], j.to = start[a + 1] + at[a + 1];
        atomic_store(&j.next, 0);
        on_threads(loose_worker, &j, threads);
    }
    free(j.order), free(adv);
    *wins = atomic_load(&j.wins);
    *losses = atomic_load(&j.losses);
    return j.vals;
}

typedef struct Plan {
    EgdbMaterial list[512];
    int n;
} Plan;

// ---- Verifying ------------------------------------------------------------------------------

// The value position p must have in model `kind`, from the values of its successors (the
// equations the levels solve): returns it, or -1 for a position with a capture pending (not
// stored).
static int expected(EgdbKind kind, const Board *p)
{
    bool man_resets = kind == EGDB_LOOSE && !verdict_balance_rules(p);
    MoveList list;
    int n = engine_moves_of(p, &list), limit = egdb_counter_limit(p);
    if (n == 0)
        return loss(EGDB_F_ANY);
    if (list.moves[0].captured)
        return -1;
    int best_win = -1, worst_loss = 1 << 20;
    bool all_won = true;
    for (int i = 0; i < n; i++) {
        Board q = *p;
        board_play(&q, &list.moves[i]);
        int v = value_of(kind, &q);
        bool promotes = list.moves[i].flags & MOVE_PROMOTES, man_step = q.kings == p->kings;
        bool reset = promotes || (man_step && man_resets);
        int g = reset || egdb_budget(v) == EGDB_F_ANY ? 1 << 20 : egdb_budget(v) - 1;
        if (egdb_is_loss(v) && g > best_win)
            best_win = g;
        if (!egdb_is_win(v))
            all_won = false;
        else if (g < worst_loss)
            worst_loss = g;
    }
    int cap = limit - 1;
    if (best_win >= 0)
        return win(best_win < cap ? best_win : cap);
    if (all_won && worst_loss >= 0)
        return loss(worst_loss < cap ? worst_loss : cap);
    return EGDB_DRAW;
}

typedef struct Check {
    Plan *plan;
    _Atomic int next; // next balance to check
    _Atomic uint64_t positions, errors;
} Check;

static void report(Check *c, const Board *p, const char *fmt, int a, int b)
{
    if (atomic_fetch_add(&c->errors, 1) >= 10)
        return;
    char fen[FEN_MAX];
    notation_fen(p, fen, sizeof fen);
    fprintf(stderr, "damka-egdb: %s ", fen);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

// Both models of balance m; the loose one must also win every strict win (of either side).
static void verify_balance(EgdbMaterial m, Check *c)
{
    _Atomic uint8_t *strict = g_values[EGDB_STRICT][m.wm][m.wk][m.bm][m.bk];
    _Atomic uint8_t *loose = g_values[EGDB_LOOSE][m.wm][m.wk][m.bm][m.bk];
    uint64_t n = egdb_slice_size(m);
    for (uint64_t i = 0; i < n; i++) {
        Board p;
        if (!egdb_unindex(m, i, &p))
            continue;
        int s = atomic_load_explicit(&strict[i], memory_order_relaxed);
        int l = atomic_load_explicit(&loose[i], memory_order_relaxed);
        int want = expected(EGDB_STRICT, &p);
        if (want < 0)
            continue;
        atomic_fetch_add(&c->positions, 1);
        if (want != s)
            report(c, &p, "has %d, its successors say %d", s, want);
        if (loose == strict)
            continue;
        atomic_fetch_add(&c->positions, 1);
        if ((want = expected(EGDB_LOOSE, &p)) != l)
            report(c, &p, "has %d in the loose model, its successors say %d", l, want);
        if ((egdb_is_win(s) && !egdb_is_win(l)) || (egdb_is_loss(s) && !egdb_is_loss(l)))
            report(c, &p, "is %d in the strict model but %d in the loose one", s, l);
    }
}

static void *verify_worker(void *arg)
{
    Check *c = arg;
    for (int i; (i = atomic_fetch_add(&c->next, 1)) < c->plan->n;)
        verify_balance(c->plan->list[i], c);
    return NULL;
}

// Every stored value of every balance of the plan against its successors, on `threads` threads.
static int verify(Plan *plan, int pieces, int threads)
{
    Check c = {.plan = plan};
    on_threads(verify_worker, &c, threads);
    fprintf(stderr,
            "damka-egdb: verified %llu values of up to %d pieces (both models): "
            "%llu errors\n",
            (unsigned long long)atomic_load(&c.positions), pieces,
            (unsigned long long)atomic_load(&c.errors));
    return atomic_load(&c.errors) ? 1 : 0;
}

// ---- The run --------------------------------------------------------------------------------

static void add(EgdbMaterial m, void *ctx)
{
    Plan *p = ctx;
    if (p->n < (int)(sizeof p->list / sizeof p->list[0]))
        p->list[p->n++] = m;
}

static int men(EgdbMaterial m) { return m.wm + m.bm; }

// `--probe FEN`: the value of a position, as the engine reads it from DIR.
static int probe(const char *dir, const char *fen)
{
    char err[256];
    Board b;
    if (!notation_parse_fen(fen, &b, err, sizeof err)) {
        fprintf(stderr, "damka-egdb: %s\n", err);
        return 2;
    }
    Egdb *db = egdb_open(dir, EGDB_PIECES_MAX, stderr, err, sizeof err);
    if (!db) {
        fprintf(stderr, "damka-egdb: %s\n", err);
        return 1;
    }
    static EgdbCache cache;
    for (int kind = 0; kind < EGDB_KINDS; kind++) {
        int v = egdb_probe(db, &b, (EgdbKind)kind, &cache);
        const char *model = kind == EGDB_LOOSE ? "loose" : "strict";
        if (v < 0)
            printf("%s: %s: not in the databases (or a capture is pending)\n", fen, model);
        else if (egdb_is_win(v) || egdb_is_loss(v))
            printf("%s: %s: %s for the side to move while the counter is at most %d plies%s\n", fen,
                   model, egdb_is_win(v) ? "win" : "loss", egdb_budget(v),
                   egdb_budget(v) == EGDB_F_ANY ? " (no legal move)" : "");
        else
            printf("%s: %s: draw\n", fen, model);
    }
    egdb_close(db);
    return 0;
}

// Opens the databases in dir and lists the balances of the complete set from `from` pieces up;
// NULL (said on stderr) when there are none.
static Egdb *open_set(const char *dir, int from, Plan *plan)
{
    char err[256];
    Egdb *db = egdb_open(dir, EGDB_PIECES_MAX, stderr, err, sizeof err);
    if (!db) {
        fprintf(stderr, "damka-egdb: %s\n", err);
        return NULL;
    }
    plan->n = 0;
    for (int p = from; p <= egdb_max_pieces(db); p++)
        egdb_each_balance(p, add, plan);
    return db;
}

// `--bench-probes N`: probes per second of random quiet positions of every loaded balance,
// with a cold cache (each probe from another block) and a warm one (the same few blocks).
static int bench_probes(const char *dir, long n)
{
    Plan plan;
    Egdb *db = open_set(dir, 2, &plan);
    if (!db)
        return 1;
    Board *boards = malloc((size_t)n * sizeof *boards);
    if (!boards)
        return 1;
    uint64_t state = 1;
    long made = 0;
    while (made < n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        EgdbMaterial m = plan.list[(state >> 33) % (uint64_t)plan.n];
        uint64_t idx = (state >> 11) % egdb_slice_size(m);
        MoveList list;
        if (egdb_unindex(m, idx, &boards[made]) && engine_moves_of(&boards[made], &list) > 0 &&
            !list.moves[0].captured)
            made++;
    }
    static EgdbCache cache;
    long found = 0;
    double t0 = util_now_s();
    for (long i = 0; i < n; i++)
        found += egdb_probe(db, &boards[i], EGDB_STRICT, &cache) >= 0;
    double cold = util_now_s() - t0;
    t0 = util_now_s();
    for (long i = 0; i < n; i++)
        found += egdb_probe(db, &boards[i % 16], EGDB_STRICT, &cache) >= 0;
    double warm = util_now_s() - t0;
    printf("%ld probes of random positions of up to %d pieces: %.0f probes/s with a cold cache "
           "(%llu block reads), %.0f probes/s cached; %ld found\n",
           n, egdb_max_pieces(db), (double)n / cold, (unsigned long long)cache.misses,
           (double)n / warm, found);
    free(boards);
    egdb_close(db);
    return 0;
}

// `--sample-wins N [--seed S]`: N random quiet positions of 3 or more pieces that the side to
// move wins from a fresh counter, at least ten plies from the first conversion, spread over
// every loaded balance, as FEN lines: the openings of the conversion test
// (tools/egdb_conversion.sh). With `--loose-only`, positions the strict table calls draws and
// the loose one wins (wins that need a man's step to reset 7.2.5, if 7.2.6 allows them).
static int sample_wins(const char *dir, long n, uint64_t seed, bool loose_only)
{
    Plan plan;
    Egdb *db = open_set(dir, 3, &plan);
    if (!db)
        return 1;
    static EgdbCache cache;
    uint64_t state = seed * 2654435761ULL + 1;
    long tries_max = (loose_only ? 100000 : 1000) * n; // loose-only wins are rare
    for (long made = 0, tries = 0; made < n && tries < tries_max; tries++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        EgdbMaterial m = plan.list[tries % plan.n]; // balances in turn
        uint64_t idx = (state >> 11) % egdb_slice_size(m);
        Board b;
        MoveList list;
        if (!egdb_unindex(m, idx, &b) || engine_moves_of(&b, &list) < 2 || list.moves[0].captured)
            continue;
        int v = egdb_probe(db, &b, EGDB_STRICT, &cache);
        if (loose_only) {
            if (v != EGDB_DRAW || !egdb_is_win(egdb_probe(db, &b, EGDB_LOOSE, &cache)))
                continue;
        } else if (!egdb_is_win(v) || egdb_budget(v) > egdb_counter_limit(&b) - 11) {
            // A win that needs play: at least ten plies before its first capture or promotion
            // (the budget of a win k plies from it is the limit - 1 - k), so it must be found.
            continue;
        }
        char fen[FEN_MAX];
        notation_fen_algebraic(&b, fen, sizeof fen);
        printf("%s\n", fen);
        made++;
    }
    egdb_close(db);
    return 0;
}

// A run of the generator: where it writes, and its progress.
typedef struct Build {
    const char *dir;
    int threads, at, of; // balance at of of
    double t0, built;    // start; positions solved by this run
    double to_build;     // positions of the tables with no file when the run began
} Build;

// The file name (64 bytes) and path (4200) of a table in dir.
static void table_path(const char *dir, EgdbMaterial m, EgdbKind kind, char *name, char *path)
{
    egdb_file_name(m, kind, name, 64);
    snprintf(path, 4200, "%s/%s", dir, name);
}

// Model `kind` of balance m: read back from its file if an earlier run finished it (rewritten
// if of an older format), else solved and written. False (said on stderr) on failure.
static bool build(Build *run, EgdbMaterial m, EgdbKind kind)
{
    uint64_t n = egdb_slice_size(m);
    char name[64], path[4200], err[4400];
    table_path(run->dir, m, kind, name, path);
    _Atomic uint8_t *vals = malloc(n);
    if (!vals) {
        fprintf(stderr, "damka-egdb: out of memory for %s\n", name);
        return false;
    }
    bool old = false;
    if (egdb_read(path, m, kind, (uint8_t *)vals, &old, err, sizeof err)) {
        g_values[kind][m.wm][m.wk][m.bm][m.bk] = vals;
        if (old && !egdb_write(path, m, kind, (const uint8_t *)vals, err, sizeof err)) {
            fprintf(stderr, "damka-egdb: %s\n", err);
            return false;
        }
        fprintf(stderr, "[%3d/%d] %-16s %12llu positions: already built%s\n", run->at, run->of,
                name, (unsigned long long)n, old ? " (rewritten in this format)" : "");
        return true;
    }
    free(vals);
    double s0 = util_now_s();
    uint64_t wins, losses;
    Board first;
    for (uint64_t i = 0; !egdb_unindex(m, i, &first); i++) {
    }
    if (kind == EGDB_LOOSE && !verdict_balance_rules(&first))
        vals = solve_loose(m, run->threads, &wins, &losses);
    else
        vals = solve(m, kind, run->threads, &wins, &losses);
    if (!vals) {
        fprintf(stderr, "damka-egdb: out of memory for %s\n", name);
        return false;
    }
    if (!egdb_write(path, m, kind, (const uint8_t *)vals, err, sizeof err)) {
        fprintf(stderr, "damka-egdb: %s\n", err);
        return false;
    }
    double dt = util_now_s() - s0, all = util_now_s() - run->t0;
    run->built += (double)n;
    double rate = all > 0 ? run->built / all : 0;
    struct stat st;
    long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    fprintf(stderr,
            "[%3d/%d] %-16s %12llu positions in %7.2f s (%5.1f M/s), %llu wins %llu losses, "
            "%lld bytes; %.0f s so far, about %.0f s left\n",
            run->at, run->of, name, (unsigned long long)n, dt, dt > 0 ? (double)n / dt / 1e6 : 0,
            (unsigned long long)wins, (unsigned long long)losses, bytes, all,
            rate > 0 ? (run->to_build - run->built) / rate : 0.0);
    return true;
}

// Both models of balance i of the plan (the loose table of kings alone is the strict one).
static bool build_balance(Build *run, const Plan *plan, int i)
{
    EgdbMaterial m = plan->list[i];
    run->at = i + 1;
    if (!build(run, m, EGDB_STRICT))
        return false;
    if (!men(m)) {
        g_values[EGDB_LOOSE][m.wm][m.wk][m.bm][m.bk] =
            g_values[EGDB_STRICT][m.wm][m.wk][m.bm][m.bk];
        return true;
    }
    return build(run, m, EGDB_LOOSE);
}

// ---- Over MPI ranks ----------------------------------------------------------------------------
// Rank 0 hands out the balances of the plan, each once all those its moves can lead to are
// finished: every balance of fewer pieces (a capture) and the two of as many pieces with one man
// of a side promoted. A rank reads those from their files in the shared folder, solves its
// balance, writes its files and reports; rank 0 builds too. The files are those one process
// writes (the solver does not depend on who runs it).

enum { SHARED_WAIT = -2 }; // no balance is ready yet: ask again in a moment

static int pieces_of(EgdbMaterial m) { return m.wm + m.wk + m.bm + m.bk; }

static bool depends(EgdbMaterial m, EgdbMaterial d)
{
    if (pieces_of(d) != pieces_of(m))
        return pieces_of(d) < pieces_of(m);
    bool white_promotes = d.wm + 1 == m.wm && d.wk == m.wk + 1 && d.bm == m.bm && d.bk == m.bk;
    bool black_promotes = d.bm + 1 == m.bm && d.bk == m.bk + 1 && d.wm == m.wm && d.wk == m.wk;
    return white_promotes || black_promotes;
}

typedef struct Shared {
    const Plan *plan;
    pthread_mutex_t mu;
    uint8_t state[512]; // 0 to build, 1 handed out, 2 finished
    bool failed;
} Shared;

static int shared_next(void *ctx)
{
    Shared *s = ctx;
    pthread_mutex_lock(&s->mu);
    int result = -1;
    for (int i = 0; i < s->plan->n && !s->failed; i++) {
        if (s->state[i] == 2)
            continue;
        result = SHARED_WAIT;
        if (s->state[i] == 1)
            continue;
        bool ready = true;
        for (int j = 0; j < s->plan->n && ready; j++)
            ready = s->state[j] == 2 || !depends(s->plan->list[i], s->plan->list[j]);
        if (ready) {
            s->state[i] = 1;
            result = i;
            break;
        }
    }
    pthread_mutex_unlock(&s->mu);
    return result;
}

static void shared_done(void *ctx, const void *msg, size_t bytes)
{
    Shared *s = ctx;
    int i;
    if (bytes != sizeof i)
        return;
    memcpy(&i, msg, sizeof i);
    pthread_mutex_lock(&s->mu);
    if (i >= 0 && i < s->plan->n)
        s->state[i] = 2;
    else
        s->failed = true; // a rank could not build its balance
    pthread_mutex_unlock(&s->mu);
}

static void *serve_ranks(void *arg)
{
    Shared *s = arg;
    cluster_serve(cluster_size() - 1, shared_next, shared_done, s);
    return NULL;
}

// This rank's part: balances until none is left, each after its dependencies are read back.
static bool shared_work(Build *run, const Plan *plan, Shared *local)
{
    bool loaded[512] = {false}, ok = true;
    for (;;) {
        int i = local ? shared_next(local) : cluster_ask();
        if (i == -1)
            break;
        if (i == SHARED_WAIT) {
            struct timespec t = {0, 20000000}; // 20 ms
            nanosleep(&t, NULL);
            continue;
        }
        for (int j = 0; j < plan->n && ok; j++)
            if (!loaded[j] && depends(plan->list[i], plan->list[j]))
                ok = loaded[j] = build_balance(run, plan, j); // (read back from its files)
        ok = ok && build_balance(run, plan, i);
        loaded[i] = ok;
        int report = ok ? i : -1;
        if (local)
            shared_done(local, &report, sizeof report);
        else
            cluster_send_result(&report, sizeof report);
        if (!ok)
            break;
    }
    if (!local)
        cluster_send_done();
    return ok;
}

static int build_shared(Build *run, Plan *plan, bool check, int pieces, int threads)
{
    if (cluster_rank() > 0) {
        bool ok = shared_work(run, plan, NULL);
        cluster_finish();
        return ok ? 0 : 1;
    }
    static Shared s;
    s.plan = plan;
    pthread_mutex_init(&s.mu, NULL);
    pthread_t server;
    if (pthread_create(&server, NULL, serve_ranks, &s) != 0) {
        fprintf(stderr, "damka-egdb: cannot start the thread that serves the ranks\n");
        cluster_abort(1);
    }
    bool ok = shared_work(run, plan, &s);
    pthread_join(server, NULL);
    ok = ok && !s.failed;
    for (int i = 0; i < plan->n && ok && check; i++)
        ok = build_balance(run, plan, i); // every balance in memory for the check
    fprintf(stderr, "damka-egdb: %d balances of up to %d pieces in %s on %d ranks, %.1f s%s\n",
            plan->n, pieces, run->dir, cluster_size(), util_now_s() - run->t0,
            ok ? "" : " (FAILED)");
    int status = !ok ? 1 : check ? verify(plan, pieces, threads) : 0;
    cluster_finish();
    return status;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: damka-egdb [--pieces N (2..%d, default 5)] [--dir DIR (egdb)] "
            "[--threads T (2)] [--verify] [--probe FEN] [--bench-probes N]\n"
            "       [--sample-wins N [--seed S] [--loose-only]]\n"
            "Builds what is missing in DIR; --verify then checks every value against its "
            "successors; --probe prints a position's value.\n",
            EGDB_PIECES_MAX);
}

int main(int argc, char **argv)
{
    int pieces = 5, threads = 2;
    bool check = false, loose_only = false;
    const char *probe_fen = NULL;
    long bench = 0, samples = 0;
    uint64_t seed = 1;
    const char *dir = "egdb";
    util_standard_args(argc, argv, "damka-egdb", DAMKA_VERSION, usage);
    if (!cluster_start(&argc, &argv))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(argv[i], "--pieces") == 0 && v) {
            pieces = (int)strtol(v, &end, 10), i++;
        } else if (strcmp(argv[i], "--threads") == 0 && v) {
            threads = (int)strtol(v, &end, 10), i++;
        } else if (strcmp(argv[i], "--dir") == 0 && v) {
            dir = v, i++;
        } else if (strcmp(argv[i], "--verify") == 0) {
            check = true;
        } else if (strcmp(argv[i], "--loose-only") == 0) {
            loose_only = true;
        } else if (strcmp(argv[i], "--probe") == 0 && v) {
            probe_fen = v, i++;
        } else if (strcmp(argv[i], "--bench-probes") == 0 && v) {
            bench = strtol(v, &end, 10), i++;
        } else if (strcmp(argv[i], "--sample-wins") == 0 && v) {
            samples = strtol(v, &end, 10), i++;
        } else if (strcmp(argv[i], "--seed") == 0 && v) {
            seed = strtoull(v, &end, 10), i++;
        } else {
            usage(stderr);
            return 2;
        }
        if (end && *end) {
            usage(stderr);
            return 2;
        }
    }
    if (pieces < 2 || pieces > EGDB_PIECES_MAX || threads < 1 || threads > THREADS_MAX) {
        usage(stderr);
        return 2;
    }
    engine_library_init();
    if (probe_fen)
        return probe(dir, probe_fen);
    if (bench > 0)
        return bench_probes(dir, bench);
    if (samples > 0)
        return sample_wins(dir, samples, seed, loose_only);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "damka-egdb: cannot create %s\n", dir);
        return 1;
    }
    Plan plan = {.n = 0};
    for (int n = 2; n <= pieces; n++) {
        int first = plan.n;
        egdb_each_balance(n, add, &plan);
        // Within a piece count, fewer men first (a promotion leads to one man fewer).
        for (int a = first + 1; a < plan.n; a++)
            for (int b = a; b > first && men(plan.list[b]) < men(plan.list[b - 1]); b--) {
                EgdbMaterial t = plan.list[b];
                plan.list[b] = plan.list[b - 1];
                plan.list[b - 1] = t;
            }
    }
    Build run = {.dir = dir, .threads = threads, .t0 = util_now_s(), .of = plan.n};
    for (int i = 0; i < plan.n; i++) {
        EgdbMaterial m = plan.list[i];
        for (int kind = 0; kind < (men(m) ? EGDB_KINDS : 1); kind++) {
            char name[64], path[4200];
            struct stat st;
            table_path(dir, m, (EgdbKind)kind, name, path);
            if (stat(path, &st) != 0) // to be built (reading the others back is quick)
                run.to_build += (double)egdb_slice_size(m);
        }
    }
    if (cluster_size() > 1)
        return build_shared(&run, &plan, check, pieces, threads);
    for (int i = 0; i < plan.n; i++)
        if (!build_balance(&run, &plan, i))
            return 1;
    fprintf(stderr, "damka-egdb: %d balances of up to %d pieces in %s, %.1f s\n", plan.n, pieces,
            dir, util_now_s() - run.t0);
    return check ? verify(&plan, pieces, threads) : 0;
}
