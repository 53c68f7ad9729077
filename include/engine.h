// SPDX-License-Identifier: MIT
// The engine facade: owns the game (position and history), options, TT and thread pool. The
// API for the protocol front end, bench and tests.
#ifndef ENGINE_H_INCLUDED
#define ENGINE_H_INCLUDED

#include <stdatomic.h>
#include <stddef.h>

#include "board.h"
#include "notation.h"
#include "pool.h"
#include "rules.h"
#include "search.h"
#include "tt.h"

enum {
    ENGINE_HASH_DEFAULT = 64,
    ENGINE_THREADS_MAX = POOL_MAX,
    ENGINE_ERR_MAX = 160,
};

// Called on the search thread when a search has ended (after stop/ponderhit for infinite and
// ponder searches). has_best is false when the side to move had no legal move.
typedef void (*EngineBestFn)(void *ctx, const SearchShared *result);

typedef struct Engine {
    Board board;                     // current position (after the game's moves)
    Key keys[MAX_GAME_PLIES];        // keys of the positions before it, oldest first
    int nkeys;
    DrawCounters counters;
    Key scratch_keys[MAX_GAME_PLIES]; // keys of a game being set, before it is committed
    TT tt;
    Pool pool;
    SearchShared sh;
    int threads;
    atomic_bool user_stop;           // stop requested by the protocol
    EngineBestFn on_best;
    void *ctx;
} Engine;

// Initialises with the start position, a 64 MB TT and one thread. False if out of memory.
bool engine_init(Engine *e);
void engine_destroy(Engine *e);

// New game: clears the TT, killers, history and the game (start position).
void engine_new_game(Engine *e);

// Sets the game: fen (NULL = start position) then the moves in any accepted text form. All or
// nothing: on error the previous game is kept and err says which move or what in the FEN.
bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int nmoves,
                         MoveFormat fmt, char *err, size_t errlen);

// As engine_set_position from a Hub position string.
bool engine_set_hub_position(Engine *e, const char *pos, const char *const *moves, int nmoves,
                             MoveFormat fmt, char *err, size_t errlen);

// The result of the current position under the game-end rules (GAME_ONGOING if it goes on).
GameResult engine_game_result(const Engine *e);

// Starts a search (the engine must be idle). on_info (if not NULL) gets the reports; on_best
// (if not NULL) is called when the search ends. Either may be NULL (bench, tools, tests).
void engine_go(Engine *e, const SearchLimits *limits, SearchInfoFn on_info, EngineBestFn on_best,
               void *ctx);

// Ends the current search (bestmove follows through on_best). No effect when idle.
void engine_stop(Engine *e);

// The pondered move was played: the search goes on under its time limits, counted from now.
void engine_ponderhit(Engine *e);

// Waits until the current search has ended and on_best returned.
void engine_wait(Engine *e);

bool engine_is_searching(Engine *e);

// Option setters (the engine must be idle); false with no change when the value is refused.
bool engine_set_hash(Engine *e, size_t megabytes);
bool engine_set_threads(Engine *e, int threads);
void engine_clear_hash(Engine *e);

#endif
