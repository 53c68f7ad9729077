// SPDX-License-Identifier: MIT
// damka-gui: a local web GUI to play and analyse Russian draughts with an engine of the
// UCI-style dialect. The server holds the game; the rules come from the engine library.
#ifndef GUI_H_INCLUDED
#define GUI_H_INCLUDED

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"

enum {
    GUI_PORT_DEFAULT = 8462,
    GUI_BODY_MAX = 1 << 20, // a PDN of a few thousand games
    GUI_QUERY_MAX = 4096,   // one query value (a FEN, a move)
    GUI_EVENTS = 256,       // events kept for the live streams
    GUI_LIBRARY_MAX = 500,  // games kept from one PDN import
    GUI_LINES_MAX = 8,      // MultiPV lines shown
    GUI_NAME_MAX = 128,     // the engine's name as it says it
    GUI_WIN = 10000,        // the graph's score of a won position (less the moves to the win)
};

// ---- A growable text buffer (json.c) -----------------------------------------------------------

typedef struct Buf {
    char *data;
    size_t len, cap;
    bool failed; // out of memory: the text is cut
} Buf;

void buf_init(Buf *b);
void buf_free(Buf *b);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Appends len raw bytes (NUL bytes included; the text stays NUL-terminated after them).
void buf_append(Buf *b, const char *data, size_t len);
// Appends s as a JSON string literal (quoted and escaped).
void buf_json_string(Buf *b, const char *s);

// ---- The session: game, engine, live events (session.c) ----------------------------------------

typedef struct Session Session;

// Starts the engine (cmd) and an empty game from the start position. book: the opening book
// the engine plays from and the page lists; NULL: the one the engine finds with no option,
// "none": no book. NULL with one line in err when the book is refused or memory runs out (an
// engine that does not start is reported in the state and retried).
Session *session_new(const char *engine_cmd, const char *book, char *err, size_t errlen);
void session_free(Session *s);

// The result of one API call: an HTTP status and a reason for 4xx.
typedef struct ApiResult {
    int status;
    char error[256];
} ApiResult;

// The commands of the API. Each validates its input with the engine library and changes
// nothing when it fails (status 400 and the reason).
ApiResult session_new_game(Session *s, const char *fen);
ApiResult session_move(Session *s, const char *text);
ApiResult session_goto(Session *s, const char *ply);
// The position after a line of moves (space separated) from the shown one, as JSON into out;
// the game is not changed.
ApiResult session_preview(Session *s, const char *moves, Buf *out);
ApiResult session_takeback(Session *s);
// Makes side line `index` (of the state's side_lines) the main line from its ply on; the main
// line's moves from there become a side line.
ApiResult session_side_line(Session *s, const char *index);
// level: the engine's Skill Level, 0..20 (20: full strength; analysis is always at full).
ApiResult session_play(Session *s, const char *side, const char *base, const char *inc,
                       const char *movetime, const char *ponder, const char *level);
ApiResult session_analyse(Session *s, const char *on);
// Searches every position of the game line for movetime seconds each (on=true), filling the
// graph and marking the moves that lost most; on=false stops it.
ApiResult session_analyse_game(Session *s, const char *on, const char *movetime);
ApiResult session_options(Session *s, const char *hash, const char *threads, const char *multipv);
ApiResult session_import_pdn(Session *s, const char *text, size_t len);
ApiResult session_load(Session *s, const char *index);

// The state as JSON (see assets/app.js), appended to out.
void session_state(Session *s, Buf *out);

// The game as PDN (GameType 25, algebraic FEN tag).
void session_pdn(Session *s, Buf *out);

// Live events: the number of the next event, and event `seq` as an SSE frame appended to out.
// session_wait_event blocks until an event after `seq` exists or timeout_ms passes; returns
// false once the session is shutting down.
uint64_t session_event_head(Session *s);
bool session_wait_event(Session *s, uint64_t seq, int timeout_ms);
void session_event(Session *s, uint64_t *seq, Buf *out);

// Asks the engine to stop and every event stream to end (before session_free).
void session_shutdown(Session *s);

// ---- Assets (generated from assets/ by embed.sh) -----------------------------------------------

typedef struct Asset {
    const char *path; // "/app.js"
    const char *type; // MIME type
    const unsigned char *data;
    size_t len;
} Asset;

extern const Asset g_gui_assets[];
extern const int g_gui_asset_count;

#endif
