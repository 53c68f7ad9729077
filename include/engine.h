// SPDX-License-Identifier: MIT
// The engine facade: owns the game (position and history), the options, the TT and the thread
// pool, behind engine_* functions. The one API of the front ends, bench, tools and tests:
// nothing outside engine.c reads the engine's fields or calls the search, the move generator
// or the evaluation.
#ifndef ENGINE_H_INCLUDED
#define ENGINE_H_INCLUDED

#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "book.h"
#include "egdb.h"
#include "notation.h"
#include "rules.h"
#include "search.h"

#define DAMKA_NAME "Damka"
#define DAMKA_VERSION "0.2"
#define ENGINE_BOOK_NAME "damka.book" // the shipped book, found like the databases

enum {
    ENGINE_HASH_DEFAULT = 64, // MB
    ENGINE_HASH_MIN = TT_MB_MIN,
    ENGINE_HASH_MAX = TT_MB_MAX,
    ENGINE_THREADS_MAX = 256,
    ENGINE_ERR_MAX = 160,
    ENGINE_MULTIPV_MAX = MULTIPV_MAX,
    ENGINE_OVERHEAD_DEFAULT = 30, // ms a move costs in pipes and GUI: measured in bench/RESULTS.md
    ENGINE_OVERHEAD_MAX = 10000,
    ENGINE_BOOK_MARGIN_DEFAULT = 10, // centi-men: 30 lost 29.6 +/- 18.6 Elo to no book, 10 lost
                                     // 10.4 +/- 5.8 (bench/RESULTS.md, 2026-12-07)
    ENGINE_BOOK_MARGIN_MAX = 1000,
    ENGINE_BOOK_VARIETY_DEFAULT = 1, // a choice by weight: games differ one from the next
    ENGINE_BOOK_PLY_MAX = 1000,
    ENGINE_ELO_MIN = 741,  // UCI_Elo of Skill Level 0 (see engine_level_elo)
    ENGINE_ELO_MAX = 2400, // nominal: full strength
    ENGINE_HANDICAP_MAX = 4,
};

typedef struct Engine Engine;

// What a search found, read with engine_result() once it has ended.
typedef struct EngineResult {
    bool has_best; // false when the side to move had no legal move
    bool has_ponder;
    bool from_book; // played from the opening book, with no search (depth 0)
    Move best;
    Move ponder;    // the expected reply (second move of the PV)
    Score score;    // centi-men from the side to move's view; see engine_win_plies
    Depth depth;    // depth of the iteration the move comes from
    uint64_t nodes; // all threads
    int pvlen;      // the principal variation, starting with best
    Move pv[MAX_PLY];
} EngineResult;

// A search's progress line: SearchReport (depth, seldepth, score, nodes, time, PV).
typedef SearchReport EngineInfo;
typedef void (*EngineInfoFn)(void *ctx, const EngineInfo *info);

// Called on the search thread when a search has ended (for infinite and ponder searches, only
// after stop or ponderhit).
typedef void (*EngineBestFn)(void *ctx, const EngineResult *result);

// What a front end asks of one search; the options (MultiPV, analysis mode, move overhead)
// are the engine's own and are added by engine_go.
typedef struct EngineGo {
    Depth depth;    // 0 = no limit
    uint64_t nodes; // 0 = no limit
    int mate;       // stop at a win in this many moves (0 = off)
    TimeInput time; // clock, increment, movestogo, movetime (overhead: from the options)
    bool infinite;
    bool ponder;
    bool analysis; // analyse (never reply at once), on top of UCI_AnalyseMode
    int nsearchmoves;
    Move searchmoves[MAX_MOVES];
} EngineGo;

// A dialect's clock as the search reads it. UCI-style: time_ms is what is left now (a
// negative clock counts as 0). Hub: time_ms is the clock before this move's increment.
// movetime_ms 0 means none.
TimeInput engine_uci_clock(bool has_clock, int64_t time_ms, int64_t inc_ms, int movestogo,
                           int64_t movetime_ms);
TimeInput engine_hub_clock(bool has_clock, int64_t time_ms, int64_t inc_ms, int movestogo,
                           int64_t movetime_ms);

// Sets go to a fixed-depth analysis with no clock (bench, tools, tests).
void engine_go_depth(EngineGo *go, Depth depth);

// Builds the read-only tables; idempotent. Tools call it before using boards or notation.
void engine_library_init(void);

// A new engine with the start position, a 64 MB TT (allocated and cleared now, not during the
// first search) and one thread; NULL when out of memory.
Engine *engine_new(void);
void engine_free(Engine *e);

// ---- The game ---------------------------------------------------------------------------------

// New game: clears the TT, killers, history and the game (start position).
void engine_new_game(Engine *e);

// Sets the game: fen (NULL = start position) then the moves in any accepted text form. All or
// nothing: on error the previous game is kept and err says which move or what in the FEN.
bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int nmoves,
                         MoveFormat fmt, char *err, size_t errlen);

// As engine_set_position from a Hub position string.
bool engine_set_hub_position(Engine *e, const char *pos, const char *const *moves, int nmoves,
                             MoveFormat fmt, char *err, size_t errlen);

// Plays m, a legal move of the current position, at the end of the game (self-play tools).
// False (nothing changed) when m is not legal or the game is too long.
bool engine_play(Engine *e, const Move *m);

// The current position (valid until the game is changed).
const Board *engine_board(const Engine *e);

// The legal moves of the current position; returns their count.
int engine_legal_moves(const Engine *e, MoveList *list);

// Finds the legal move of the current position named by text (see notation_parse_move).
bool engine_parse_move(const Engine *e, const char *text, MoveFormat fmt, Move *out, char *err,
                       size_t errlen);

// The result of the current position under the game-end rules (GAME_ONGOING if it goes on).
GameResult engine_game_result(const Engine *e);

// Short text for a game result ("no legal move", "threefold repetition (7.2.3)", ...).
const char *engine_result_text(GameResult r);

// Writes the evaluation of the current position and its terms, one per line.
void engine_explain_eval(const Engine *e, FILE *out);

// The static evaluation of the current position, for the side to move.
int engine_static_eval(const Engine *e);

// ---- Rules on any board (tools and bench) -------------------------------------------------------

// The legal moves of b; returns their count.
int engine_moves_of(const Board *b, MoveList *list);

// True when neither side has a capture pending in b (a quiet position: training data).
bool engine_is_quiet(const Board *b);
// True when the side to move in b has a capture (the evaluation never scores such a position).
bool engine_must_capture(const Board *b);

// The position after m, a legal move of b.
void engine_board_after(const Board *b, const Move *m, Board *out);

// Perft of b (bulk: the last ply counted without being played).
uint64_t engine_perft(const Board *b, int depth, bool bulk);

// Perft divided by the first move: the legal moves of b in list and the perft of depth - 1
// after each in counts[i] (depth >= 1); returns their sum.
uint64_t engine_perft_divide(const Board *b, int depth, bool bulk, MoveList *list,
                             uint64_t counts[MAX_MOVES]);

// ---- Searching --------------------------------------------------------------------------------

// Starts a search of the current position (stopping any running one first). on_info (if not
// NULL) gets the reports; on_best (if not NULL) is called when it ends. Returns false, and
// starts nothing, when the side to move has no legal move.
bool engine_go(Engine *e, const EngineGo *go, EngineInfoFn on_info, EngineBestFn on_best,
               void *ctx);

// Ends the current search (on_best follows). No effect when idle.
void engine_stop(Engine *e);

// The pondered move was played: the search goes on under its time limits, counted from now.
void engine_ponderhit(Engine *e);

// Waits until the current search has ended and on_best returned.
void engine_wait(Engine *e);

bool engine_is_searching(Engine *e);

// Waits at most ms milliseconds for the current search to end; true when it has (or none
// was running). For front ends that must look at something else meanwhile.
bool engine_wait_ms(Engine *e, int ms);

// The result of the last search (after engine_wait).
void engine_result(const Engine *e, EngineResult *out);

// A score as a forced result: N > 0 when it wins in N plies, -N when it loses in N, else 0.
int engine_win_plies(Score s);

// ---- Options (the rows of options.c apply them; the engine must be idle or is stopped) -------

// Hash in MB: the table is allocated and cleared at once. False (table kept) on failure.
bool engine_set_hash(Engine *e, int64_t megabytes);
int64_t engine_hash(const Engine *e);
// Hash as log2 of the number of table entries (Scan's tt-size), entries of 16 bytes.
bool engine_set_hash_log2(Engine *e, int64_t log2_entries);
int64_t engine_hash_log2(const Engine *e);
bool engine_set_threads(Engine *e, int64_t threads);
int64_t engine_threads(const Engine *e);
bool engine_clear_hash(Engine *e, int64_t unused);
bool engine_set_multipv(Engine *e, int64_t lines);
int64_t engine_multipv(const Engine *e);
bool engine_set_move_overhead(Engine *e, int64_t ms);
int64_t engine_move_overhead(const Engine *e);
bool engine_set_analyse_mode(Engine *e, int64_t on);
int64_t engine_analyse_mode(const Engine *e);
// Move text of the UCI-style dialect: 0 uci (c3d4), 1 algebraic (c3-d4), 2 numeric (22-18).
bool engine_set_move_style(Engine *e, int64_t style);
int64_t engine_move_style(const Engine *e);
MoveFormat engine_uci_format(const Engine *e);
// Hub square numbering: 0 b8 (square 1 = b8), 1 a1 (square 1 = a1).
bool engine_set_hub_numbering(Engine *e, int64_t numbering);
int64_t engine_hub_numbering(const Engine *e);
MoveFormat engine_hub_format(const Engine *e);
// Evaluation weights: a file written by damka-train ("" or "<empty>": the built-in ones). On
// failure the current weights are kept and err says why in one line.
bool engine_set_eval_file(Engine *e, const char *path, char *err, size_t errlen);
void engine_eval_file(const Engine *e, char *buf, size_t len);
// Opening book: OwnBook (play its moves), the file ("" or "<empty>": none; on failure the
// previous book is kept and err says why), the margin (centi-men below the best move's score a
// move may score and still be played), variety (0: the best-scored move; 1..100: a choice by
// weight among those within the margin, from a generator seeded with the value when it is set,
// so that a seed gives the same sequence of games, each game going on where the last one
// stopped) and the last ply of the game it is used at (0: any).
bool engine_set_own_book(Engine *e, int64_t on);
int64_t engine_own_book(const Engine *e);
bool engine_set_book_file(Engine *e, const char *path, char *err, size_t errlen);
void engine_book_file(const Engine *e, char *buf, size_t len);
bool engine_has_book(const Engine *e);
bool engine_set_book_margin(Engine *e, int64_t cp);
int64_t engine_book_margin(const Engine *e);
bool engine_set_book_variety(Engine *e, int64_t variety);
int64_t engine_book_variety(const Engine *e);
bool engine_set_book_ply(Engine *e, int64_t ply);
int64_t engine_book_ply(const Engine *e);
// The book's moves of the current position (legal ones), their entries in out; their count.
int engine_book_moves(const Engine *e, BookEntry *out, Move *moves, int max);
// Levels a person can beat. Skill Level 0..SKILL_FULL (20, full strength): below it the engine
// searches shallower and plays one of its best lines chosen with a calibrated error in their
// scores (reproducible: setting a level seeds its generator). UCI_LimitStrength with UCI_Elo
// plays the highest level whose measured Elo does not pass it. Hub `level handicap=` 0..4 sets
// a level (0 full strength). Analysis (infinite, UCI_AnalyseMode) is always at full strength.
bool engine_set_skill(Engine *e, int64_t level);
int64_t engine_skill(const Engine *e);
bool engine_set_limit_strength(Engine *e, int64_t on);
int64_t engine_limit_strength(const Engine *e);
bool engine_set_elo(Engine *e, int64_t elo);
int64_t engine_elo(const Engine *e);
bool engine_set_handicap(Engine *e, int64_t handicap);
// The level the engine plays at now (SKILL_FULL: full strength), and a level's Elo.
int engine_playing_level(const Engine *e);
int engine_level_elo(int level);
// Endgame databases: the folder they are loaded from ("" or "<empty>": none). On success err
// may hold a warning (a file of the folder refused, the rest loaded); on failure the previous
// databases are kept and err says why.
bool engine_set_egdb_path(Engine *e, const char *path, char *err, size_t errlen);
void engine_egdb_path(const Engine *e, char *buf, size_t len);
// Probe positions of at most this many pieces (0: never).
bool engine_set_egdb_pieces(Engine *e, int64_t pieces);
int64_t engine_egdb_pieces(const Engine *e);
// Pieces of the largest complete set loaded (0: none).
int engine_egdb_loaded(const Engine *e);

// A score of the endgame databases' band as 1..99 (the more progress and counter budget, the
// larger), negative for a loss; 0 for any other score (verdict_band).
int engine_egdb_score(Score s);

// Accepts any value and changes nothing: options of other engines that clients send.
bool engine_ignore_option(Engine *e, int64_t value);
int64_t engine_no_value(const Engine *e);

// ---- Data files -------------------------------------------------------------------------------

// Finds a data file by its path under the data directory (e.g. "openings/3ply.txt"): beside
// the running binary in the source tree (book/ for openings, then the name itself), under
// <binary dir>/../share/damka/, then under the compiled-in DAMKA_DATADIR. Writes the path
// found to out and returns true; false when none exists.
bool engine_find_data(const char *name, char *out, size_t len);

// ---- Tests ------------------------------------------------------------------------------------

// The next `starts` thread starts succeed and the one after fails (-1: none fails), so that
// tests can see what a failed Threads change leaves.
void engine_test_fail_threads(Engine *e, int starts);

// Breadcrumb slots still marked (0 once every search has unwound; see search.c).
int engine_marked_crumbs(const Engine *e);

#endif
