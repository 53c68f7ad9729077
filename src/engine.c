// SPDX-License-Identifier: MIT
// Owns the engine's mutable state: the game, the options, the TT, the pool and the running
// search. The only module above search that calls the search, movegen or the evaluation.
#include "engine.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "movegen.h"
#include "platform.h"
#include "pool.h"
#include "tables.h"
#include "timeman.h"
#include "tt.h"
#include "util.h"

struct Engine {
    Board board;              // current position (after the game's moves)
    Key keys[MAX_GAME_PLIES]; // keys of the positions before it, oldest first
    int nkeys;
    DrawCounters counters;
    Key scratch_keys[MAX_GAME_PLIES]; // keys of a game being set, before it is committed
    TT tt;
    Pool pool;
    SearchShared sh;
    atomic_bool user_stop;   // stop requested by the front end
    pthread_mutex_t hold_mu; // an infinite or ponder search that has ended waits on
    pthread_cond_t hold_cv;  // hold_cv for stop or ponderhit before it reports
    EngineBestFn on_best;
    void *ctx;
    // Options.
    int threads;
    int multipv;
    bool analyse_mode;
    int64_t move_overhead_ms;
    int move_style;    // 0 uci, 1 algebraic, 2 numeric
    int hub_numbering; // 0 b8, 1 a1
    Egdb *egdb;        // endgame databases (NULL: none)
    char egdb_path[4096];
    int egdb_pieces;          // probe up to this many pieces
    EvalWeights *eval_loaded; // weights read from eval_path (NULL: the built-in ones)
    NetWeights *net_loaded;   // or a network read from it (NULL: none; the search uses it)
    char eval_path[4096];
    Book *book; // opening book (NULL: none)
    char book_path[4096];
    bool own_book;
    int book_margin, book_variety, book_ply;
    uint64_t book_rng;   // the generator of book_variety
    bool from_book;      // the last result is the book's
    int skill;           // Skill Level, 0..SKILL_FULL (full strength)
    bool limit_strength; // UCI_LimitStrength: the level is the one of UCI_Elo
    int elo;             // UCI_Elo
    uint64_t skill_rng;  // the generator of the weakened choice
};

enum { TT_ENTRY_BYTES = 16, LOG2_MB = 20 }; // one entry is two 64-bit words

void engine_library_init(void)
{
    tables_init();
    eval_init();
}

TimeInput engine_uci_clock(bool has_clock, int64_t time_ms, int64_t inc_ms, int movestogo,
                           int64_t movetime_ms)
{
    return timeman_uci_input(has_clock, time_ms, inc_ms, movestogo, movetime_ms);
}

TimeInput engine_hub_clock(bool has_clock, int64_t time_ms, int64_t inc_ms, int movestogo,
                           int64_t movetime_ms)
{
    return timeman_hub_input(has_clock, time_ms, inc_ms, movestogo, movetime_ms);
}

void engine_go_depth(EngineGo *go, Depth depth)
{
    memset(go, 0, sizeof *go);
    go->depth = depth;
    go->analysis = true;
}

Engine *engine_new(void)
{
    engine_library_init();
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    board_start(&e->board);
    tt_init(&e->tt);
    pthread_mutex_init(&e->hold_mu, NULL);
    pthread_cond_init(&e->hold_cv, NULL);
    e->threads = 1;
    e->multipv = 1;
    e->skill = SKILL_FULL;
    e->elo = ENGINE_ELO_MAX;
    e->skill_rng = 1;
    e->move_overhead_ms = ENGINE_OVERHEAD_DEFAULT;
    if (!pool_init(&e->pool, 1)) {
        free(e);
        return NULL;
    }
    if (!engine_set_hash(e, ENGINE_HASH_DEFAULT)) {
        pool_destroy(&e->pool);
        free(e);
        return NULL;
    }
    // The book at the default place (book/damka.book beside the binary, or under the data
    // folder), with no option.
    e->own_book = true;
    e->book_margin = ENGINE_BOOK_MARGIN_DEFAULT;
    engine_set_book_variety(e, ENGINE_BOOK_VARIETY_DEFAULT);
    char book_file[4096];
    if (engine_find_data(ENGINE_BOOK_NAME, book_file, sizeof book_file)) {
        char why[ENGINE_ERR_MAX];
        if (!engine_set_book_file(e, book_file, why, sizeof why))
            fprintf(stderr, "damka: %s\n", why);
    }
    // The databases at the default place (egdb/ beside the binary or under the data folder),
    // with no option; a refused file is said on stderr, the protocol's stdout stays clean.
    e->egdb_pieces = EGDB_PIECES_MAX;
    // engine_set_egdb_path leaves a failure or a warning (one refused file) in err.
    char dir[4096], err[ENGINE_ERR_MAX] = "";
    if (engine_find_data("egdb", dir, sizeof dir))
        engine_set_egdb_path(e, dir, err, sizeof err);
    if (err[0])
        fprintf(stderr, "damka: endgame databases: %s\n", err);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_stop(e);
    pool_destroy(&e->pool);
    tt_free(&e->tt);
    egdb_close(e->egdb);
    book_close(e->book);
    free(e->eval_loaded);
    free(e->net_loaded);
    pthread_cond_destroy(&e->hold_cv);
    pthread_mutex_destroy(&e->hold_mu);
    free(e);
}

void engine_new_game(Engine *e)
{
    engine_stop(e);
    tt_clear(&e->tt, e->threads);
    pool_clear(&e->pool);
    board_start(&e->board);
    e->nkeys = 0;
    e->counters = (DrawCounters){0, 0, 0};
}

// Plays the moves on a scratch game; commits only if every move is legal.
static bool play_moves(Engine *e, const Board *start, const char *const *moves, int nmoves,
                       MoveFormat fmt, char *err, size_t errlen)
{
    Key *keys = e->scratch_keys;
    Board b = *start;
    DrawCounters c = {0, 0, 0};
    if (nmoves >= MAX_GAME_PLIES) {
        snprintf(err, errlen, "too many moves (at most %d)", MAX_GAME_PLIES - 1);
        return false;
    }
    for (int i = 0; i < nmoves; i++) {
        Move m;
        char why[ENGINE_ERR_MAX];
        if (!notation_parse_move(&b, moves[i], fmt, &m, why, sizeof why)) {
            snprintf(err, errlen, "move %d: %s", i + 1, why);
            return false;
        }
        keys[i] = b.key;
        c = rules_after_move(c, &b, &m);
        board_play(&b, &m);
        assert(board_is_ok(&b));
    }
    engine_stop(e); // a running search reads the game
    e->board = b;
    e->counters = c;
    e->nkeys = nmoves;
    memcpy(e->keys, keys, (size_t)nmoves * sizeof(Key));
    return true;
}

bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int nmoves,
                         MoveFormat fmt, char *err, size_t errlen)
{
    Board start;
    if (fen) {
        if (!notation_parse_fen(fen, &start, err, errlen))
            return false;
    } else {
        board_start(&start);
    }
    return play_moves(e, &start, moves, nmoves, fmt, err, errlen);
}

bool engine_set_hub_position(Engine *e, const char *pos, const char *const *moves, int nmoves,
                             MoveFormat fmt, char *err, size_t errlen)
{
    Board start;
    if (!notation_parse_hub_pos(pos, &start, err, errlen))
        return false;
    return play_moves(e, &start, moves, nmoves, fmt, err, errlen);
}

bool engine_play(Engine *e, const Move *m)
{
    if (e->nkeys + 1 >= MAX_GAME_PLIES || !movegen_is_legal(&e->board, m))
        return false;
    engine_stop(e);
    e->keys[e->nkeys++] = e->board.key;
    e->counters = rules_after_move(e->counters, &e->board, m);
    board_play(&e->board, m);
    return true;
}

const Board *engine_board(const Engine *e) { return &e->board; }

int engine_legal_moves(const Engine *e, MoveList *list) { return movegen_all(&e->board, list); }

bool engine_parse_move(const Engine *e, const char *text, MoveFormat fmt, Move *out, char *err,
                       size_t errlen)
{
    return notation_parse_move(&e->board, text, fmt, out, err, errlen);
}

GameResult engine_game_result(const Engine *e)
{
    return rules_game_result(&e->board, e->counters, e->keys, e->nkeys);
}

const char *engine_result_text(GameResult r) { return rules_result_text(r); }

static const EvalWeights *eval_weights(const Engine *e)
{
    return e->eval_loaded ? e->eval_loaded : eval_builtin();
}

// The network's score of the current position (a network is loaded).
static int net_static(const Engine *e)
{
    NetAccumulator acc;
    net_refresh(e->net_loaded, &e->board, &acc);
    return net_score(e->net_loaded, &e->board, &acc);
}

void engine_explain_eval(const Engine *e, FILE *out)
{
    if (e->net_loaded) {
        fprintf(out,
                "network: %s\nnetwork score: %d (side to move; the search's number)\n"
                "the pattern evaluation (built-in weights), for comparison:\n",
                e->eval_path, net_static(e));
    } else {
        fprintf(out, "weights: %s\n", e->eval_loaded ? e->eval_path : "built-in");
    }
    eval_explain(eval_weights(e), &e->board, out);
}

int engine_static_eval(const Engine *e)
{
    return e->net_loaded ? net_static(e) : eval_evaluate(eval_weights(e), &e->board);
}

// A path option's value that means none: empty, or the `<empty>` of UCI GUIs.
static bool path_is_none(const char *path) { return !path[0] || strcmp(path, "<empty>") == 0; }

bool engine_set_eval_file(Engine *e, const char *path, char *err, size_t errlen)
{
    err[0] = '\0';
    engine_stop(e);
    const char *kept = e->eval_loaded || e->net_loaded ? e->eval_path : "the built-in weights";
    if (path_is_none(path)) {
        if (e->eval_loaded || e->net_loaded)
            tt_clear(&e->tt, e->threads); // the stored evaluations were the loaded weights'
        free(e->eval_loaded);
        free(e->net_loaded);
        e->eval_loaded = NULL;
        e->net_loaded = NULL;
        e->eval_path[0] = '\0';
        return true;
    }
    if (strlen(path) >= sizeof e->eval_path) {
        snprintf(err, errlen, "path too long; keeping %s", kept);
        return false;
    }
    // A network file or pattern weights, told apart by the file's first bytes.
    char magic[8] = {0};
    FILE *f = fopen(path, "rb");
    bool is_net = f && fread(magic, 1, sizeof magic, f) == sizeof magic &&
                  memcmp(magic, "DAMKANET", sizeof magic) == 0;
    if (f)
        fclose(f);
    EvalWeights *w = is_net ? NULL : malloc(sizeof *w);
    NetWeights *n = is_net ? malloc(sizeof *n) : NULL;
    char why[(int)EVAL_ERR_MAX > (int)NET_ERR_MAX ? (int)EVAL_ERR_MAX : (int)NET_ERR_MAX];
    bool ok = is_net ? n && net_load_file(path, n, why, sizeof why)
                     : w && eval_load_file(path, w, why, sizeof why);
    if (!ok) {
        snprintf(err, errlen, "%s; keeping %s", w || n ? why : "out of memory", kept);
        free(w);
        free(n);
        return false;
    }
    free(e->eval_loaded);
    free(e->net_loaded);
    e->eval_loaded = w;
    e->net_loaded = n;
    snprintf(e->eval_path, sizeof e->eval_path, "%s", path);
    tt_clear(&e->tt, e->threads); // the stored evaluations were the old weights'
    return true;
}

void engine_eval_file(const Engine *e, char *buf, size_t len)
{
    snprintf(buf, len, "%s", e->eval_loaded || e->net_loaded ? e->eval_path : "");
}

int engine_moves_of(const Board *b, MoveList *list) { return movegen_all(b, list); }

bool engine_is_quiet(const Board *b)
{
    return !movegen_has_capture(b) && !movegen_opponent_has_capture(b);
}

bool engine_must_capture(const Board *b) { return movegen_has_capture(b); }

uint64_t engine_perft(const Board *b, int depth, bool bulk)
{
    return movegen_perft(b, depth, bulk);
}

void engine_board_after(const Board *b, const Move *m, Board *out)
{
    assert(movegen_is_legal(b, m));
    *out = *b;
    board_play(out, m);
}

uint64_t engine_perft_divide(const Board *b, int depth, bool bulk, MoveList *list,
                             uint64_t counts[MAX_MOVES])
{
    assert(depth >= 1);
    uint64_t total = 0;
    movegen_all(b, list);
    for (int i = 0; i < list->count; i++) {
        Board child = *b;
        board_play(&child, &list->moves[i]);
        counts[i] = movegen_perft(&child, depth - 1, bulk);
        total += counts[i];
    }
    return total;
}

static void fill_result(const Engine *e, EngineResult *r)
{
    const SearchShared *sh = &e->sh;
    memset(r, 0, sizeof *r);
    r->has_best = sh->has_best;
    r->has_ponder = sh->has_ponder;
    r->best = sh->best;
    r->ponder = sh->ponder;
    r->score = sh->best_score;
    r->depth = sh->best_depth;
    r->pvlen = sh->has_best ? sh->best_pvlen : 0;
    r->from_book = e->from_book;
    memcpy(r->pv, sh->best_pv, (size_t)r->pvlen * sizeof(Move));
    for (int t = 0; t < sh->thread_count; t++)
        r->nodes += search_worker_nodes(sh->workers[t]);
}

// ---- The opening book ---------------------------------------------------------------------------

bool engine_set_own_book(Engine *e, int64_t on)
{
    e->own_book = on != 0;
    return true;
}

int64_t engine_own_book(const Engine *e) { return e->own_book; }

bool engine_set_book_file(Engine *e, const char *path, char *err, size_t errlen)
{
    err[0] = '\0';
    engine_stop(e);
    if (path_is_none(path)) {
        book_close(e->book);
        e->book = NULL;
        e->book_path[0] = '\0';
        return true;
    }
    char why[ENGINE_ERR_MAX];
    Book *b = book_open(path, why, sizeof why);
    if (!b) {
        snprintf(err, errlen, "%s; keeping %s", why, e->book_path[0] ? e->book_path : "none");
        return false;
    }
    book_close(e->book);
    e->book = b;
    snprintf(e->book_path, sizeof e->book_path, "%s", path);
    return true;
}

bool engine_has_book(const Engine *e) { return e->book != NULL; }

void engine_book_file(const Engine *e, char *buf, size_t len)
{
    snprintf(buf, len, "%s", e->book_path[0] ? e->book_path : "<empty>");
}

bool engine_set_book_margin(Engine *e, int64_t cp)
{
    if (cp < 0 || cp > ENGINE_BOOK_MARGIN_MAX)
        return false;
    e->book_margin = (int)cp;
    return true;
}

int64_t engine_book_margin(const Engine *e) { return e->book_margin; }

bool engine_set_book_variety(Engine *e, int64_t variety)
{
    if (variety < 0 || variety > 100)
        return false;
    e->book_variety = (int)variety;
    e->book_rng = (uint64_t)variety * 0x9E3779B97F4A7C15ULL + 1;
    return true;
}

int64_t engine_book_variety(const Engine *e) { return e->book_variety; }

bool engine_set_book_ply(Engine *e, int64_t ply)
{
    if (ply < 0 || ply > ENGINE_BOOK_PLY_MAX)
        return false;
    e->book_ply = (int)ply;
    return true;
}

int64_t engine_book_ply(const Engine *e) { return e->book_ply; }

int engine_book_moves(const Engine *e, BookEntry *out, Move *moves, int max)
{
    return book_probe(e->book, &e->board, out, moves, max);
}

// The book's move for a game's move (not analysis): the best-scored move, or with variety a
// choice by weight among the moves within the margin of it. False when the book has none.
static bool book_move(Engine *e, const EngineGo *go, Move *out, Score *score)
{
    if (!e->own_book || !e->book || go->infinite || go->ponder || go->analysis || e->analyse_mode ||
        go->nsearchmoves || go->depth || go->nodes || go->mate ||
        (e->book_ply && e->nkeys >= e->book_ply))
        return false;
    BookEntry ent[BOOK_MOVES_MAX];
    Move mv[BOOK_MOVES_MAX];
    int n = book_probe(e->book, &e->board, ent, mv, BOOK_MOVES_MAX), best = -1;
    for (int i = 0; i < n; i++)
        if (ent[i].weight && (best < 0 || ent[i].score > ent[best].score))
            best = i;
    if (best < 0)
        return false;
    int pick = best;
    if (e->book_variety) {
        uint64_t total = 0;
        for (int i = 0; i < n; i++)
            if (ent[i].weight && ent[i].score >= ent[best].score - e->book_margin)
                total += ent[i].weight;
        uint64_t r = util_random(&e->book_rng) % total;
        for (int i = 0; i < n; i++)
            if (ent[i].weight && ent[i].score >= ent[best].score - e->book_margin) {
                if (r < ent[i].weight) {
                    pick = i;
                    break;
                }
                r -= ent[i].weight;
            }
    }
    *out = mv[pick];
    *score = ent[pick].score;
    return true;
}

// Plays the book's move as a search's result, at once: no thread runs.
static void book_result(Engine *e, const Move *m, Score score, EngineBestFn on_best, void *ctx)
{
    SearchShared *sh = &e->sh;
    sh->has_best = true;
    sh->has_ponder = false;
    sh->best = *m;
    sh->best_score = score;
    sh->best_depth = 0;
    sh->best_pvlen = 1;
    sh->best_pv[0] = *m;
    sh->thread_count = 0;
    e->from_book = true;
    if (on_best) {
        EngineResult r;
        fill_result(e, &r);
        on_best(ctx, &r);
    }
}

// Runs on the main search thread when every thread has stopped.
static void search_done(void *ctx)
{
    Engine *e = ctx;
    // Infinite and ponder searches report only when told to (stop or ponderhit).
    pthread_mutex_lock(&e->hold_mu);
    while (!atomic_load(&e->user_stop) && (e->sh.limits.infinite || atomic_load(&e->sh.pondering)))
        pthread_cond_wait(&e->hold_cv, &e->hold_mu);
    pthread_mutex_unlock(&e->hold_mu);
    if (e->on_best) {
        EngineResult r;
        fill_result(e, &r);
        e->on_best(e->ctx, &r);
    }
}

bool engine_go(Engine *e, const EngineGo *go, EngineInfoFn on_info, EngineBestFn on_best, void *ctx)
{
    engine_stop(e);
    if (movegen_count(&e->board) == 0)
        return false;
    e->from_book = false;
    Move bm;
    Score bs;
    if (book_move(e, go, &bm, &bs)) {
        book_result(e, &bm, bs, on_best, ctx);
        return true;
    }
    SearchShared *sh = &e->sh;
    SearchLimits *l = &sh->limits;
    memset(l, 0, sizeof *l);
    l->depth = go->depth;
    l->nodes = go->nodes;
    l->mate = go->mate;
    l->time = go->time;
    l->time.overhead_ms = e->move_overhead_ms;
    l->infinite = go->infinite;
    l->ponder = go->ponder;
    l->analysis = go->analysis || e->analyse_mode;
    l->multipv = e->multipv;
    // A weakened level plays: it never analyses weakened.
    int level = engine_playing_level(e);
    if (level < SKILL_FULL && !l->analysis && !l->infinite) {
        l->weakness = SKILL_FULL - level;
        l->skill_rng = util_random(&e->skill_rng);
        if (l->multipv < search_skill_lines(level))
            l->multipv = search_skill_lines(level);
        if (l->depth == 0 || l->depth > search_skill_depth(level))
            l->depth = search_skill_depth(level);
    }
    l->nsearchmoves = go->nsearchmoves;
    memcpy(l->searchmoves, go->searchmoves, (size_t)go->nsearchmoves * sizeof(Move));
    sh->tt = &e->tt;
    sh->budget = l->infinite ? timeman_no_budget() : timeman_budget(&l->time);
    atomic_store(&sh->stop, false);
    atomic_store(&sh->pondering, l->ponder);
    atomic_store(&sh->start_ms, util_now_ms());
    atomic_store(&sh->completed_depth, 0);
    atomic_store(&sh->nodes_used, 0);
    sh->root = e->board;
    sh->root_counters = e->counters;
    sh->eval = eval_weights(e);
    sh->net = e->net_loaded;
    sh->egdb = e->egdb;
    sh->egdb_pieces = e->egdb ? e->egdb_pieces : 0;
    sh->history = e->keys;
    sh->history_len = e->nkeys;
    sh->on_info = on_info;
    sh->ctx = ctx;
    sh->has_best = sh->has_ponder = false;
    atomic_store(&e->user_stop, false);
    e->on_best = on_best;
    e->ctx = ctx;
    tt_new_search(&e->tt);
    pool_start(&e->pool, sh, search_done, e);
    return true;
}

// Wakes a search waiting in search_done, setting *flag (if any) under its lock so that the
// wake-up cannot fall between its test and its wait.
static void release_hold(Engine *e, atomic_bool *flag)
{
    pthread_mutex_lock(&e->hold_mu);
    if (flag)
        atomic_store(flag, true);
    pthread_cond_broadcast(&e->hold_cv);
    pthread_mutex_unlock(&e->hold_mu);
}

void engine_stop(Engine *e)
{
    if (!pool_is_searching(&e->pool))
        return;
    atomic_store(&e->sh.stop, true);
    release_hold(e, &e->user_stop);
    engine_wait(e);
}

void engine_ponderhit(Engine *e)
{
    atomic_store(&e->sh.start_ms, util_now_ms());
    atomic_store(&e->sh.pondering, false);
    release_hold(e, NULL);
}

void engine_wait(Engine *e) { pool_wait(&e->pool); }

bool engine_is_searching(Engine *e) { return pool_is_searching(&e->pool); }

bool engine_wait_ms(Engine *e, int ms) { return pool_wait_ms(&e->pool, ms); }

void engine_result(const Engine *e, EngineResult *out) { fill_result(e, out); }

int engine_win_plies(Score s)
{
    if (s >= SCORE_WIN_MIN)
        return SCORE_WIN - s;
    if (s <= -SCORE_WIN_MIN)
        return -(SCORE_WIN + s);
    return 0;
}

// ---- Options ----------------------------------------------------------------------------------

bool engine_set_hash(Engine *e, int64_t megabytes)
{
    engine_stop(e);
    if (megabytes < TT_MB_MIN || megabytes > TT_MB_MAX || !tt_resize(&e->tt, (size_t)megabytes))
        return false;
    // Every page is touched now: the first search must not pay for it (a 64 MB table made the
    // first `go` take 160 ms more, bench/RESULTS.md).
    tt_clear(&e->tt, e->threads);
    return true;
}

int64_t engine_hash(const Engine *e) { return (int64_t)e->tt.megabytes; }

bool engine_set_hash_log2(Engine *e, int64_t log2_entries)
{
    int shift = LOG2_MB - 4; // 2^16 entries of 16 bytes are 1 MB
    if (log2_entries < shift || log2_entries > shift + 16)
        return false;
    return engine_set_hash(e, INT64_C(1) << (log2_entries - shift));
}

int64_t engine_hash_log2(const Engine *e)
{
    int64_t n = 0;
    while ((INT64_C(1) << (n + 1)) * TT_ENTRY_BYTES <= (int64_t)e->tt.megabytes << LOG2_MB)
        n++;
    return n;
}

bool engine_set_threads(Engine *e, int64_t threads)
{
    engine_stop(e);
    if (threads < 1 || threads > ENGINE_THREADS_MAX || threads > POOL_MAX)
        return false;
    bool ok = pool_resize(&e->pool, (int)threads);
    e->threads = e->pool.count; // a failed resize keeps a working pool, perhaps of another size
    return ok;
}

int64_t engine_threads(const Engine *e) { return e->threads; }

bool engine_clear_hash(Engine *e, int64_t unused)
{
    (void)unused;
    engine_stop(e);
    tt_clear(&e->tt, e->threads);
    return true;
}

bool engine_set_multipv(Engine *e, int64_t lines)
{
    if (lines < 1 || lines > ENGINE_MULTIPV_MAX)
        return false;
    e->multipv = (int)lines;
    return true;
}

int64_t engine_multipv(const Engine *e) { return e->multipv; }

bool engine_set_move_overhead(Engine *e, int64_t ms)
{
    if (ms < 0 || ms > ENGINE_OVERHEAD_MAX)
        return false;
    e->move_overhead_ms = ms;
    return true;
}

int64_t engine_move_overhead(const Engine *e) { return e->move_overhead_ms; }

bool engine_set_analyse_mode(Engine *e, int64_t on)
{
    e->analyse_mode = on != 0;
    return true;
}

int64_t engine_analyse_mode(const Engine *e) { return e->analyse_mode; }

// ---- Levels ------------------------------------------------------------------------------------

// The Elo of the levels on a nominal scale that puts full strength at ENGINE_ELO_MAX: the
// differences measured by damka-match at 0.2 s a move (bench/levels.sh, 100 games a match;
// bench/RESULTS.md, "Levels"), chained from full strength down: 18 -119 +/- 38, 15 -436 +/- 94,
// 10 a further -392 +/- 93, 5 a further -382 +/- 95, 0 a further -449 +/- 136. The levels
// between two measured ones are interpolated linearly.
static const struct {
    int level, elo;
} LEVEL_ELO[] = {{0, ENGINE_ELO_MIN}, {5, 1190},  {10, 1572},
                 {15, 1964},          {18, 2281}, {SKILL_FULL, ENGINE_ELO_MAX}};

int engine_level_elo(int level)
{
    int n = (int)(sizeof LEVEL_ELO / sizeof LEVEL_ELO[0]), i = 1;
    if (level <= LEVEL_ELO[0].level)
        return LEVEL_ELO[0].elo;
    while (i < n - 1 && LEVEL_ELO[i].level < level)
        i++;
    if (level >= LEVEL_ELO[i].level)
        return LEVEL_ELO[i].elo;
    int l0 = LEVEL_ELO[i - 1].level, e0 = LEVEL_ELO[i - 1].elo;
    return e0 + (LEVEL_ELO[i].elo - e0) * (level - l0) / (LEVEL_ELO[i].level - l0);
}

bool engine_set_skill(Engine *e, int64_t level)
{
    if (level < 0 || level > SKILL_FULL)
        return false;
    e->skill = (int)level;
    e->skill_rng = (uint64_t)level * 0x9E3779B97F4A7C15ULL + 1; // a level set is a seed
    return true;
}

int64_t engine_skill(const Engine *e) { return e->skill; }

bool engine_set_limit_strength(Engine *e, int64_t on)
{
    e->limit_strength = on != 0;
    return true;
}

int64_t engine_limit_strength(const Engine *e) { return e->limit_strength; }

bool engine_set_elo(Engine *e, int64_t elo)
{
    if (elo < ENGINE_ELO_MIN || elo > ENGINE_ELO_MAX)
        return false;
    e->elo = (int)elo;
    return true;
}

int64_t engine_elo(const Engine *e) { return e->elo; }

// Hub `level handicap=`: 0 full strength, 1 to 3 weaker and weaker (Skill Level 15, 10, 5),
// 4 the weakest level (0).
static const int HANDICAP_LEVEL[ENGINE_HANDICAP_MAX + 1] = {SKILL_FULL, 15, 10, 5, 0};

bool engine_set_handicap(Engine *e, int64_t handicap)
{
    if (handicap < 0 || handicap > ENGINE_HANDICAP_MAX)
        return false;
    e->limit_strength = false;
    return engine_set_skill(e, HANDICAP_LEVEL[handicap]);
}

int engine_playing_level(const Engine *e)
{
    if (!e->limit_strength)
        return e->skill;
    // The highest level whose Elo does not pass UCI_Elo.
    int level = 0;
    while (level < SKILL_FULL && engine_level_elo(level + 1) <= e->elo)
        level++;
    return level;
}

static const MoveFormat UCI_FORMATS[] = {MOVE_FMT_UCI, MOVE_FMT_ALG, MOVE_FMT_NUMERIC};
static const MoveFormat HUB_FORMATS[] = {MOVE_FMT_HUB, MOVE_FMT_HUB_A1};

bool engine_set_move_style(Engine *e, int64_t style)
{
    if (style < 0 || style >= (int64_t)(sizeof UCI_FORMATS / sizeof UCI_FORMATS[0]))
        return false;
    e->move_style = (int)style;
    return true;
}

int64_t engine_move_style(const Engine *e) { return e->move_style; }

MoveFormat engine_uci_format(const Engine *e) { return UCI_FORMATS[e->move_style]; }

bool engine_set_hub_numbering(Engine *e, int64_t numbering)
{
    if (numbering < 0 || numbering >= (int64_t)(sizeof HUB_FORMATS / sizeof HUB_FORMATS[0]))
        return false;
    e->hub_numbering = (int)numbering;
    return true;
}

int64_t engine_hub_numbering(const Engine *e) { return e->hub_numbering; }

MoveFormat engine_hub_format(const Engine *e) { return HUB_FORMATS[e->hub_numbering]; }

bool engine_set_egdb_path(Engine *e, const char *path, char *err, size_t errlen)
{
    err[0] = '\0';
    engine_stop(e);
    if (path_is_none(path)) {
        egdb_close(e->egdb);
        e->egdb = NULL;
        e->egdb_path[0] = '\0';
        return true;
    }
    // The files refused go to a scratch file (C's tmpfile: any system), of which the first
    // line is the warning.
    FILE *f = tmpfile();
    char why[ENGINE_ERR_MAX], first[ENGINE_ERR_MAX] = "";
    Egdb *db = egdb_open(path, EGDB_PIECES_MAX, f, why, sizeof why);
    if (f) {
        rewind(f);
        if (fgets(first, sizeof first, f))
            first[strcspn(first, "\n")] = '\0';
        fclose(f);
    }
    if (!db) {
        snprintf(err, errlen, "%s; keeping %s", why, e->egdb_path[0] ? e->egdb_path : "none");
        return false;
    }
    if (first[0]) // the first file refused, on one line
        snprintf(err, errlen, "%s", first);
    egdb_close(e->egdb);
    e->egdb = db;
    snprintf(e->egdb_path, sizeof e->egdb_path, "%s", path);
    return true;
}

void engine_egdb_path(const Engine *e, char *buf, size_t len)
{
    snprintf(buf, len, "%s", e->egdb_path[0] ? e->egdb_path : "<empty>");
}

bool engine_set_egdb_pieces(Engine *e, int64_t pieces)
{
    if (pieces < 0 || pieces > EGDB_PIECES_MAX)
        return false;
    e->egdb_pieces = (int)pieces;
    return true;
}

int64_t engine_egdb_pieces(const Engine *e) { return e->egdb_pieces; }

int engine_egdb_loaded(const Engine *e) { return egdb_max_pieces(e->egdb); }

int engine_egdb_score(Score s) { return verdict_band(s); }

bool engine_ignore_option(Engine *e, int64_t value)
{
    (void)e;
    (void)value;
    return true;
}

int64_t engine_no_value(const Engine *e)
{
    (void)e;
    return 0;
}

#ifndef DAMKA_DATADIR
#define DAMKA_DATADIR "/usr/local/share/damka"
#endif

bool engine_find_data(const char *name, char *out, size_t len)
{
    char exe[4096];
    if (platform_module_dir(exe, sizeof exe)) {
        static const char *const under_exe[] = {"%s/book/%s", "%s/%s", "%s/../share/damka/%s"};
        for (size_t i = 0; i < sizeof under_exe / sizeof under_exe[0]; i++) {
            if (snprintf(out, len, under_exe[i], exe, name) < (int)len && platform_is_readable(out))
                return true;
        }
    }
    return snprintf(out, len, "%s/%s", DAMKA_DATADIR, name) < (int)len && platform_is_readable(out);
}

void engine_test_fail_threads(Engine *e, int starts) { e->pool.fail_after = starts; }

int engine_marked_crumbs(const Engine *e)
{
    int n = 0;
    for (int i = 0; i < SEARCH_CRUMB_SLOTS; i++)
        n += atomic_load(&e->sh.crumbs[i]) != 0;
    return n;
}
