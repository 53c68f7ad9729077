// SPDX-License-Identifier: MIT
// damka-match: engine-vs-engine matches with clocks, openings, adjudication, PDN, Elo, SPRT.
#ifndef MATCH_H_INCLUDED
#define MATCH_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "board.h"
#include "rules.h"
#include "util.h"

enum { MATCH_OPTIONS_MAX = 32, MATCH_NAME_MAX = 64, MATCH_GAME_PLIES_MAX = 1024 };

// ---- Statistics (stats.c) -------------------------------------------------------------------

typedef struct MatchScore {
    int wins, losses, draws; // from the first engine's side
} MatchScore;

// Elo difference for a score fraction s (0 < s < 1); +-inf at the ends.
double stats_elo(double s);

// Elo difference of a result and its 95% error bar (half-width), from the per-game variance.
void stats_elo_error(const MatchScore *m, double *elo, double *error);

// Likelihood of superiority in percent.
double stats_los(const MatchScore *m);

// Log-likelihood ratio of elo1 against elo0 (GSPRT, logistic model with the per-game variance
// of the sample), and the bounds for alpha and beta.
double stats_sprt_llr(const MatchScore *m, double elo0, double elo1);
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);

// ---- Time controls and clocks (clock.c) -----------------------------------------------------

typedef enum TcKind { TC_NONE, TC_CLOCK, TC_MOVETIME, TC_DEPTH, TC_NODES } TcKind;

typedef struct TimeControl {
    TcKind kind;
    int moves;       // moves per period (0 = whole game)
    int64_t base_ms; // time per period
    int64_t inc_ms;  // increment per move
    int64_t movetime_ms;
    int depth;
    int64_t nodes;
    int64_t margin_ms; // tolerance before a side is flagged
} TimeControl;

// Parses "40/10+0.1", "0/5+0.05", "5+0.05", "60" (seconds, may be m:ss) into tc.
bool tc_parse_clock(const char *text, TimeControl *tc);

typedef struct Clock {
    int64_t left_ms;
    int moves_in_period; // moves played in the current period
} Clock;

void clock_start(Clock *c, const TimeControl *tc);

// Moves left to the end of the period (0 in sudden death).
int clock_movestogo(const Clock *c, const TimeControl *tc);

// Charges a move that took used_ms. Returns false when the side overran (flag fell beyond the
// margin); otherwise adds the increment and, at the end of a period, the next period's time.
bool clock_charge(Clock *c, const TimeControl *tc, int64_t used_ms);

// TimeControl in PDN form ("40/10+0.1", "st=0.1", "depth=8", ...).
void tc_format(const TimeControl *tc, char *buf, size_t len);

// ---- Openings (openings.c) ------------------------------------------------------------------

typedef struct Opening {
    Board start; // the FEN of the line
    char fen[160];
    int nmoves; // moves played from it
    Move moves[64];
} Opening;

// Reads an opening file: one per line, a FEN optionally followed by moves, or just moves from
// the start position; '#' starts a comment. Returns the count, or -1 with a reason in err.
int openings_read(FILE *f, Opening **out, char *err, size_t errlen);

// ---- Games and adjudication (adjudicate.c) --------------------------------------------------

typedef enum GameOutcome { OUT_NONE, OUT_WHITE_WINS, OUT_BLACK_WINS, OUT_DRAW } GameOutcome;

typedef struct Adjudication {
    int draw_movenumber, draw_movecount, draw_score; // draw_movecount 0 = off
    int resign_movecount, resign_score;              // resign_movecount 0 = off
    int maxmoves;                                    // full moves; 0 = no limit
} Adjudication;

// A game's position and record, with everything the rules need.
typedef struct Game {
    Board start;
    Board board;
    DrawCounters counters;
    Key keys[MATCH_GAME_PLIES_MAX + 1];
    int nplies;
    Move moves[MATCH_GAME_PLIES_MAX];
    int scores[MATCH_GAME_PLIES_MAX]; // the mover's reported score (cp, mates as +-30000)
    bool has_score[MATCH_GAME_PLIES_MAX];
    GameOutcome outcome;
    char reason[128];
    int opening_plies;
} Game;

void game_start(Game *g, const Board *start);

// Plays m (legal) with the mover's score (if known). Returns the outcome if the game ended.
GameOutcome game_play(Game *g, const Move *m, bool has_score, int score_cp,
                      const Adjudication *adj);

// Ends the game with a result and reason (faults, time losses).
void game_end(Game *g, GameOutcome o, const char *reason);

// ---- PDN (pdn.c) ----------------------------------------------------------------------------

// Comments of a game's main line: comment i follows ply i (0: before the first move).
enum { PDN_NOTES_MAX = 4096 };
typedef struct PdnNotes {
    char text[PDN_NOTES_MAX];              // the comments, each NUL-terminated
    uint16_t at[MATCH_GAME_PLIES_MAX + 1]; // offset + 1 into text of ply i's comment (0: none)
} PdnNotes;

// A side line: moves played instead of the main line's from ply `ply` on (its first move
// replaces main-line move `ply`, counted from 0).
typedef struct PdnLine {
    int ply;
    int n;
    const Move *moves;
} PdnLine;

typedef struct PdnTags {
    const char *event, *site, *date, *white, *black, *time_control;
    int round;
    const char *round_text; // when not NULL, the Round tag as it was read (round unused)
    const char *result;     // when not NULL, the result to write (a game ended off the board)
    const PdnNotes *notes;  // when not NULL, the comments written after their moves
    const PdnLine *lines;   // side lines written in parentheses after the move they replace
    int nlines;
} PdnTags;

void pdn_write(FILE *out, const PdnTags *tags, const Game *g);

// One game read from PDN: its main line and its comments (variations are skipped).
typedef struct PdnGame {
    char event[64], site[64], round[16], white[64], black[64], date[32], result[16];
    Board start; // the FEN tag's position, or the start position
    int nmoves;
    Move moves[MATCH_GAME_PLIES_MAX];
    PdnNotes notes;
} PdnGame;

// The whole text of a file (PDN games), NUL-terminated, to free; NULL with the reason in err.
char *pdn_read_text_file(const char *path, char *err, size_t errlen);

// A result as PDN writes it (1-0, 0-1, 1/2-1/2, *) from any PDN result (2-0, 0-2, 1-1 too).
const char *pdn_result_standard(const char *result);

// The comment after ply i of notes (NULL: none).
const char *pdn_note(const PdnNotes *notes, int ply);

// Reads the next game of text from *pos (advanced past it). Returns 1 with the game in *g, 0
// when no game is left, or -1 with a one-line reason in err (*pos then skips to the next
// game). Moves in any notation of protocol.md (c3-d4, c3xe5xg7, 22-18, 22x15); a game of
// another GameType than 25 (Russian draughts) is refused.
int pdn_read(const char *text, size_t *pos, PdnGame *g, char *err, size_t errlen);

// ---- Players: engine processes (player.c) ---------------------------------------------------

typedef enum Proto { PROTO_UCI, PROTO_HUB } Proto;

typedef struct EngineSpec {
    char name[MATCH_NAME_MAX];
    char cmd[512];
    char dir[256];
    Proto proto;
    int noptions;
    char opt_name[MATCH_OPTIONS_MAX][64];
    char opt_value[MATCH_OPTIONS_MAX][128];
    bool restart; // a fresh process for every game
} EngineSpec;

typedef enum ReplyStatus { REPLY_OK, REPLY_TIMEOUT, REPLY_CRASH, REPLY_BAD } ReplyStatus;

// ---- Child processes over pipes (proc.c) ----------------------------------------------------

typedef struct Proc {
    pid_t pid;
    int to_fd, from_fd;
    FILE *to;
    char buf[16384];
    size_t buflen;
    bool alive;   // can be written to
    bool started; // has a process and pipes to clean up
} Proc;

// Starts `sh -c "exec cmd"` in dir (NULL = here) with stdin/stdout on pipes, stderr to
// /dev/null. False if it could not be started.
bool proc_start(Proc *p, const char *cmd, const char *dir);

// Writes one line (printf-style) and flushes; false if the process is gone.
bool proc_send(Proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Writes raw bytes (for bad-input tests).
bool proc_send_raw(Proc *p, const void *data, size_t len);

// Closes the process's standard input (end of input).
void proc_close_input(Proc *p);

// Reads one line before the deadline (util_now_ms() based) into out.
ReplyStatus proc_read_line(Proc *p, int64_t deadline, char *out, size_t len);

// Reads lines until one whose first word is `word`; that line is left in out.
ReplyStatus proc_wait_for(Proc *p, const char *word, int64_t deadline, char *out, size_t len);

// Sends quit_line (if not NULL) and closes the input, waits for the process to end (up to
// QUIT_GRACE_MS after a quit line, STOP_GRACE_MS without one), then kills it. Returns the wait
// status, or -1 if it had to be killed.
enum { QUIT_GRACE_MS = 3000, STOP_GRACE_MS = 200 };
int proc_stop(Proc *p, const char *quit_line);

// ---- Players: engines in a match (player.c) -------------------------------------------------

typedef struct Player {
    const EngineSpec *spec;
    Proc proc;
    char error[160];
    char scratch[MATCH_GAME_PLIES_MAX * 24]; // the game's moves as text, for each request
} Player;

// Starts the process and does the handshake (uci/uciok or hub/wait, options, isready/init).
bool player_start(Player *p, const EngineSpec *spec, int64_t timeout_ms);
void player_stop(Player *p);
bool player_alive(const Player *p);

// New game (ucinewgame / new-game) and a readiness check.
bool player_new_game(Player *p, int64_t timeout_ms);

// Asks for a move in the game's position under the clocks; fills *m on REPLY_OK (a legal move
// of the position), the reported score when there was one, and used_ms.
ReplyStatus player_go(Player *p, const Game *g, const TimeControl *tc, const Clock clocks[2],
                      int64_t deadline_ms, Move *m, bool *has_score, int *score_cp,
                      int64_t *used_ms);

#endif
