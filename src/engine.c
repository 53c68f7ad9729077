// SPDX-License-Identifier: MIT
// Owns the engine's mutable state: the game, the TT, the pool and the running search.
#include "engine.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "movegen.h"
#include "notation.h"
#include "tables.h"
#include "timeman.h"

bool engine_init(Engine *e)
{
    memset(e, 0, sizeof *e);
    tables_init();
    board_start(&e->board);
    tt_init(&e->tt);
    if (!tt_resize(&e->tt, ENGINE_HASH_DEFAULT))
        return false;
    e->threads = 1;
    if (!pool_init(&e->pool, 1)) {
        tt_free(&e->tt);
        return false;
    }
    return true;
}

void engine_destroy(Engine *e)
{
    engine_stop(e);
    pool_destroy(&e->pool);
    tt_free(&e->tt);
}

void engine_new_game(Engine *e)
{
    engine_wait(e);
    tt_clear(&e->tt, e->threads);
    pool_clear(&e->pool);
    board_start(&e->board);
    e->nkeys = 0;
    e->counters = (DrawCounters){0, 0};
}

// Plays the moves on a scratch game; commits only if every move is legal.
static bool play_moves(Engine *e, const Board *start, const char *const *moves, int nmoves,
                       MoveFormat fmt, char *err, size_t errlen)
{
    Key *keys = e->scratch_keys;
    Board b = *start;
    DrawCounters c = {0, 0};
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
    }
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

GameResult engine_game_result(const Engine *e)
{
    return rules_game_result(&e->board, e->counters, e->keys, e->nkeys);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

// Runs on the main search thread when every thread has stopped.
static void search_done(void *ctx)
{
    Engine *e = ctx;
    // Infinite and ponder searches report only when told to (stop or ponderhit).
    while (!atomic_load(&e->user_stop) &&
           (e->sh.limits.infinite || atomic_load(&e->sh.pondering)))
        sleep_ms(1);
    if (e->on_best)
        e->on_best(e->ctx, &e->sh);
}

void engine_go(Engine *e, const SearchLimits *limits, SearchInfoFn on_info, EngineBestFn on_best,
               void *ctx)
{
    engine_wait(e);
    SearchShared *sh = &e->sh;
    sh->tt = &e->tt;
    sh->limits = *limits;
    sh->budget = timeman_budget(&limits->time);
    if (limits->infinite)
        sh->budget = (TimeBudget){-1, -1};
    atomic_store(&sh->stop, false);
    atomic_store(&sh->pondering, limits->ponder);
    atomic_store(&sh->start_ms, timeman_now_ms());
    atomic_store(&sh->completed_depth, 0);
    sh->root = e->board;
    sh->root_counters = e->counters;
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
}

void engine_stop(Engine *e)
{
    atomic_store(&e->user_stop, true);
    atomic_store(&e->sh.stop, true);
    engine_wait(e);
}

void engine_ponderhit(Engine *e)
{
    atomic_store(&e->sh.start_ms, timeman_now_ms());
    atomic_store(&e->sh.pondering, false);
}

void engine_wait(Engine *e) { pool_wait(&e->pool); }

bool engine_is_searching(Engine *e) { return pool_is_searching(&e->pool); }

bool engine_set_hash(Engine *e, size_t megabytes)
{
    engine_wait(e);
    return tt_resize(&e->tt, megabytes);
}

bool engine_set_threads(Engine *e, int threads)
{
    engine_wait(e);
    if (threads < 1 || threads > ENGINE_THREADS_MAX || !pool_resize(&e->pool, threads))
        return false;
    e->threads = threads;
    return true;
}

void engine_clear_hash(Engine *e)
{
    engine_wait(e);
    tt_clear(&e->tt, e->threads);
}
