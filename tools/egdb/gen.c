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
#include "egdb.h"
#include "engine.h"
#include "notation.h"

enum {
    UNKNOWN = 254,       // not decided yet (EGDB_NONE = 255 marks holes)
    NEVER = 255,         // count of a position that can never be lost (it has a way out)
    CHUNK = 1 << 14,     // positions a thread takes at once
    THREADS_MAX = 64,
    SLOTS = EGDB_PIECES_MAX + 1,
    UNMOVES_MAX = 128,
};

static _Atomic uint8_t *g_values[SLOTS][SLOTS][SLOTS][SLOTS]; // finished and current balances

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint8_t win(int f) { return (uint8_t)(EGDB_WIN + f); }
static uint8_t loss(int f) { return (uint8_t)(EGDB_LOSS + f); }

// The value of any position of a finished balance, or of one with a capture pending (valued
// from its captures, which lead to finished balances).
static int value_of(const Board *q)
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
            int v = value_of(&r);
            if (egdb_is_loss(v))
                return win(egdb_counter_limit(q) - 1);
            all_lost &= egdb_is_win(v);
        }
        return all_lost ? loss(egdb_counter_limit(q) - 1) : EGDB_DRAW;
    }
    EgdbMaterial m = egdb_material_of(q);
    uint64_t idx;
    _Atomic uint8_t *vals = g_values[m.wm][m.wk][m.bm][m.bk];
    if (!vals || !egdb_index(q, &idx))
        return EGDB_DRAW; // cannot happen for the balances built in order
    return atomic_load_explicit(&vals[idx], memory_order_relaxed);
}

// ---- One balance ----------------------------------------------------------------------------

typedef struct Job {
    EgdbMaterial m;
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

static void first_pass(Job *j, uint64_t idx)
{
    Board p;
    if (!egdb_unindex(j->m, idx, &p)) {
        atomic_store_explicit(&j->vals[idx], EGDB_NONE, memory_order_relaxed);
        return;
    }
    MoveList list;
    int n = engine_moves_of(&p, &list), limit = egdb_counter_limit(&p);
    uint8_t v = UNKNOWN, count = 0;
    if (n == 0 || list.moves[0].captured) {
        v = (uint8_t)value_of(&p);
    } else {
        bool won = false, all_lost = true;
        for (int i = 0; i < n && !won; i++) {
            if (!(list.moves[i].flags & MOVE_PROMOTES)) {
                count++;
                continue;
            }
            Board q = p; // a promotion leaves the balance, and resets the counter
            board_play(&q, &list.moves[i]);
            int r = value_of(&q);
            won = egdb_is_loss(r);
            all_lost &= egdb_is_win(r);
        }
        if (won)
            v = win(limit - 1);
        else if (count == 0)
            v = all_lost ? loss(limit - 1) : EGDB_DRAW;
        else if (!all_lost)
            count = NEVER;
    }
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

static void run_threads(Job *j, int threads, int level)
{
    pthread_t tid[THREADS_MAX];
    j->level = level;
    atomic_store(&j->next, 0);
    int started = 0;
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, worker, j) == 0)
            started++;
    worker(j);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

// Builds balance m in memory; returns its values (the caller keeps them for later balances).
static _Atomic uint8_t *solve(EgdbMaterial m, int threads, uint64_t *wins, uint64_t *losses)
{
    Job j = {.m = m, .n = egdb_slice_size(m)};
    j.vals = malloc(j.n);
    j.count = malloc(j.n);
    if (!j.vals || !j.count) {
        free(j.vals), free(j.count);
        return NULL;
    }
    g_values[m.wm][m.wk][m.bm][m.bk] = j.vals; // its capture positions are read while solving
    run_threads(&j, threads, 0);
    run_threads(&j, threads, EGDB_F_ANY);
    for (int t = EGDB_F_MAX; t >= 1; t--)
        if (atomic_load(&j.at_level[t])) // a level nobody reached has nothing to spread
            run_threads(&j, threads, t);
    *wins = *losses = 0;
    for (uint64_t i = 0; i < j.n; i++) {
        uint8_t v = atomic_load_explicit(&j.vals[i], memory_order_relaxed);
        if (v == UNKNOWN)
            atomic_store_explicit(&j.vals[i], EGDB_DRAW, memory_order_relaxed);
        *wins += egdb_is_win(v);
        *losses += egdb_is_loss(v) && v != EGDB_NONE;
    }
    free(j.count);
    return j.vals;
}

typedef struct Plan {
    EgdbMaterial list[512];
    int n;
} Plan;

// ---- Verifying ------------------------------------------------------------------------------

// The value position p must have, from the values of its successors (the equations the
// levels solve): returns it, or -1 for a position with a capture pending (not stored).
static int expected(const Board *p)
{
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
        int v = value_of(&q);
        bool reset = (list.moves[i].flags & MOVE_PROMOTES) != 0;
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
    _Atomic int next;                  // next balance to check
    _Atomic uint64_t positions, errors;
} Check;

static void verify_balance(EgdbMaterial m, Check *c)
{
    _Atomic uint8_t *vals = g_values[m.wm][m.wk][m.bm][m.bk];
    uint64_t n = egdb_slice_size(m);
    for (uint64_t i = 0; i < n; i++) {
        Board p;
        if (!egdb_unindex(m, i, &p))
            continue;
        int want = expected(&p), have = atomic_load_explicit(&vals[i], memory_order_relaxed);
        if (want < 0)
            continue;
        atomic_fetch_add(&c->positions, 1);
        if (want != have && atomic_fetch_add(&c->errors, 1) < 10) {
            char fen[FEN_MAX];
            notation_fen(&p, fen, sizeof fen);
            fprintf(stderr, "damka-egdb: %s has %d, its successors say %d\n", fen, have, want);
        }
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
    pthread_t tid[THREADS_MAX];
    int started = 0;
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, verify_worker, &c) == 0)
            started++;
    verify_worker(&c);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    fprintf(stderr, "damka-egdb: verified %llu positions of up to %d pieces: %llu errors\n",
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
    int v = egdb_probe(db, &b, &cache);
    egdb_close(db);
    if (v < 0)
        printf("%s: not in the databases (or a capture is pending)\n", fen);
    else if (egdb_is_win(v) || egdb_is_loss(v))
        printf("%s: %s for the side to move while the counter is at most %d plies%s\n", fen,
               egdb_is_win(v) ? "win" : "loss", egdb_budget(v),
               egdb_budget(v) == EGDB_F_ANY ? " (no legal move)" : "");
    else
        printf("%s: draw\n", fen);
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
    double t0 = now_s();
    for (long i = 0; i < n; i++)
        found += egdb_probe(db, &boards[i], &cache) >= 0;
    double cold = now_s() - t0;
    t0 = now_s();
    for (long i = 0; i < n; i++)
        found += egdb_probe(db, &boards[i % 16], &cache) >= 0;
    double warm = now_s() - t0;
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
// (tools/egdb_conversion.sh).
static int sample_wins(const char *dir, long n, uint64_t seed)
{
    Plan plan;
    Egdb *db = open_set(dir, 3, &plan);
    if (!db)
        return 1;
    static EgdbCache cache;
    uint64_t state = seed * 2654435761ULL + 1;
    for (long made = 0, tries = 0; made < n && tries < 1000 * n; tries++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        EgdbMaterial m = plan.list[tries % plan.n]; // balances in turn
        uint64_t idx = (state >> 11) % egdb_slice_size(m);
        Board b;
        MoveList list;
        if (!egdb_unindex(m, idx, &b) || engine_moves_of(&b, &list) < 2 || list.moves[0].captured)
            continue;
        int v = egdb_probe(db, &b, &cache);
        // A win that needs play: at least ten plies before its first capture or promotion
        // (the budget of a win k plies from it is the limit - 1 - k), so it must be found.
        if (!egdb_is_win(v) || egdb_budget(v) > egdb_counter_limit(&b) - 11)
            continue;
        char fen[FEN_MAX];
        notation_fen_algebraic(&b, fen, sizeof fen);
        printf("%s\n", fen);
        made++;
    }
    egdb_close(db);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: damka-egdb [--pieces N (2..%d, default 5)] [--dir DIR (egdb)] "
                    "[--threads T (2)] [--verify] [--probe FEN] [--bench-probes N]\n"
                    "       [--sample-wins N [--seed S]]\n"
                    "Builds what is missing in DIR; --verify then checks every value against its "
                    "successors; --probe prints a position's value.\n",
            EGDB_PIECES_MAX);
}

int main(int argc, char **argv)
{
    int pieces = 5, threads = 2;
    bool check = false;
    const char *probe_fen = NULL;
    long bench = 0, samples = 0;
    uint64_t seed = 1;
    const char *dir = "egdb";
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
        } else if (strcmp(argv[i], "--probe") == 0 && v) {
            probe_fen = v, i++;
        } else if (strcmp(argv[i], "--bench-probes") == 0 && v) {
            bench = strtol(v, &end, 10), i++;
        } else if (strcmp(argv[i], "--sample-wins") == 0 && v) {
            samples = strtol(v, &end, 10), i++;
        } else if (strcmp(argv[i], "--seed") == 0 && v) {
            seed = strtoull(v, &end, 10), i++;
        } else {
            usage();
            return 2;
        }
        if (end && *end) {
            usage();
            return 2;
        }
    }
    if (pieces < 2 || pieces > EGDB_PIECES_MAX || threads < 1 || threads > THREADS_MAX) {
        usage();
        return 2;
    }
    engine_library_init();
    if (probe_fen)
        return probe(dir, probe_fen);
    if (bench > 0)
        return bench_probes(dir, bench);
    if (samples > 0)
        return sample_wins(dir, samples, seed);
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
    uint64_t total = 0, done = 0;
    for (int i = 0; i < plan.n; i++)
        total += egdb_slice_size(plan.list[i]);
    double t0 = now_s(), built_positions = 0;
    for (int i = 0; i < plan.n; i++) {
        EgdbMaterial m = plan.list[i];
        uint64_t n = egdb_slice_size(m);
        char name[64], path[4200], err[4400];
        egdb_file_name(m, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        _Atomic uint8_t *vals = malloc(n);
        if (!vals) {
            fprintf(stderr, "damka-egdb: out of memory for %s\n", name);
            return 1;
        }
        // A finished file from an earlier run is read back (and checked) instead; one of an
        // older version of the format is written again in this one.
        bool old = false;
        if (egdb_read(path, m, (uint8_t *)vals, &old, err, sizeof err)) {
            g_values[m.wm][m.wk][m.bm][m.bk] = vals;
            done += n;
            if (old && !egdb_write(path, m, (const uint8_t *)vals, err, sizeof err)) {
                fprintf(stderr, "damka-egdb: %s\n", err);
                return 1;
            }
            fprintf(stderr, "[%3d/%d] %-16s %12llu positions: already built%s\n", i + 1,
                    plan.n, name, (unsigned long long)n, old ? " (rewritten in this format)" : "");
            continue;
        }
        free(vals);
        double s0 = now_s();
        uint64_t wins, losses;
        vals = solve(m, threads, &wins, &losses);
        if (!vals) {
            fprintf(stderr, "damka-egdb: out of memory for %s\n", name);
            return 1;
        }
        if (!egdb_write(path, m, (const uint8_t *)vals, err, sizeof err)) {
            fprintf(stderr, "damka-egdb: %s\n", err);
            return 1;
        }
        double dt = now_s() - s0, all = now_s() - t0;
        done += n;
        built_positions += (double)n;
        double rate = all > 0 ? built_positions / all : 0;
        struct stat st;
        long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
        fprintf(stderr,
                "[%3d/%d] %-16s %12llu positions in %7.2f s (%5.1f M/s), %llu wins %llu losses, "
                "%lld bytes; %.0f s so far, about %.0f s left\n",
                i + 1, plan.n, name, (unsigned long long)n, dt, dt > 0 ? (double)n / dt / 1e6 : 0,
                (unsigned long long)wins, (unsigned long long)losses, bytes, all,
                rate > 0 ? (double)(total - done) / rate : 0.0);
    }
    fprintf(stderr, "damka-egdb: %d balances of up to %d pieces in %s, %.1f s\n", plan.n, pieces,
            dir, now_s() - t0);
    return check ? verify(&plan, pieces, threads) : 0;
}
