// SPDX-License-Identifier: MIT
// The GUI session's private part, shared by session.c (the game, the API, the state) and
// driver.c (the engine process): the session's state and the calls between the two.
#ifndef SESSION_H_INCLUDED
#define SESSION_H_INCLUDED

#include "gui.h"

enum {
    UCI_WAIT_MS = 5000,       // uci -> uciok: a program that does not answer is no engine
    HANDSHAKE_MS = 30000,     // isready -> readyok (a big Hash is cleared first)
    RETRY_MS = 1000,          // a failed start is tried again after this, doubled each time to 64x
    HANG_MARGIN_MS = 5000,    // a search this much past its time is a hang: the engine restarts
    STOP_WAIT_MS = 5000,      // a stopped search that sends no bestmove by then: a hang too
    POLL_MS = 100,            // the reader thread wakes this often (clocks, watchdog)
    DEFAULT_MOVE_MS = 1000,   // the first game: a second a move,
    DEFAULT_BASE_MS = 180000, // and the clock the form offers: 3 min + 2 s
    DEFAULT_INC_MS = 2000,
    DEFAULT_GAME_MOVE_MS = 1000, // whole-game analysis: a second a position
    MARK_SCALE_CP = 200,         // win chances: 2 / (1 + e^(-cp / 200)) - 1; a man is 0.25
};

// A move's loss in the mover's win chances that marks it (docs/gui.md).
#define MARK_INACCURACY 0.10
#define MARK_MISTAKE 0.20
#define MARK_BLUNDER 0.30

enum {
    QUEUE_MAX = 8,
};

// SEARCH_GAME: one position of the whole-game analysis, its score kept for the graph.
typedef enum SearchKind { SEARCH_THINK, SEARCH_PONDER, SEARCH_ANALYSE, SEARCH_GAME } SearchKind;

// The whole-game analysis: every position of the game line searched in turn.
typedef struct GameAnalysis {
    bool running;
    int next;            // the ply of the position searched now
    int64_t movetime_ms; // per position
} GameAnalysis;

// A search sent to the engine, waiting for its bestmove.
typedef struct Pending {
    SearchKind kind;
    bool cancelled; // its result is not wanted (its bestmove is dropped)
    int64_t started_ms;
    int64_t deadline_ms; // past this the engine is hung (0: none, as in analysis)
    int ply;             // the ply of the game it searches (its position's index)
    Move ponder_move;    // SEARCH_PONDER: the reply it expects
    bool from_book;      // the engine said its move came from its book
} Pending;

// What an analysis line shows.
typedef struct Line {
    bool set;
    int depth, multipv;
    bool mate;
    int score; // cp or mate moves, side to move's view
    Side pov;  // the side to move of the position searched: whose view score is
    uint64_t nodes, nps;
    int64_t time_ms;
    char pv[1024];       // algebraic, space separated
    char from[3], to[3]; // the best move, for the arrow
} Line;

typedef enum PlaySide { PLAY_NONE, PLAY_WHITE, PLAY_BLACK, PLAY_BOTH } PlaySide;

// What a game record said of the game shown (its PDN tags and comments), kept for export.
// A side line: moves that were the game's from ply `ply` on (its first move replaces the main
// line's move `ply`, counted from 0) until a person played another move there. One level:
// the side lines of a side line are not kept.
enum { GUI_SIDE_LINES_MAX = 8 };
typedef struct SideLine {
    int ply;
    int n;
    Move moves[MATCH_GAME_PLIES_MAX];
} SideLine;

typedef struct Record {
    char event[64], site[64], round[16], date[32], white[64], black[64], result[16];
    PdnNotes notes;
    bool imported; // the game came from PDN
    bool intact;   // no move changed since: the recorded result still holds
} Record;

struct Session {
    pthread_mutex_t mu;
    pthread_cond_t changed; // a new event
    pthread_t reader;
    bool quit;
    // Engine.
    char cmd[512];
    Proc proc;
    bool engine_up;
    bool engine_starting; // the reader thread is starting it (the lock is free meanwhile)
    bool ever_up;
    int start_failures;  // failed starts in a row
    int64_t retry_at_ms; // when a failed start is tried again
    char engine_name[GUI_NAME_MAX];
    char engine_status[160]; // what the page shows: crashed, restarted, ...
    int restarts;
    int ponderhits; // pondered replies the player then played
    Pending queue[QUEUE_MAX];
    int nqueue;
    int64_t stop_sent_ms; // a stop is waiting for its bestmove (0: none)
    // Options.
    int hash_mb, threads, multipv;
    // The game.
    Game game;
    int view;                            // plies shown (0..game.nplies)
    int score[MATCH_GAME_PLIES_MAX + 1]; // White's view, cp, per ply position; for the graph
    bool has_score[MATCH_GAME_PLIES_MAX + 1];
    bool from_book[MATCH_GAME_PLIES_MAX + 1]; // the move to this ply came from the engine's book
    Record record;
    SideLine side[GUI_SIDE_LINES_MAX]; // oldest first
    int nside;
    struct Book *book;      // the opening book the page lists (NULL: none)
    char book_option[4096]; // what damka-gui --book gave, told to the engine ("": nothing)
    // Play.
    PlaySide engine_side;                 // who the engine plays
    int64_t base_ms, inc_ms, movetime_ms; // movetime > 0: time per move, else base + inc
    bool ponder;
    int level;    // the engine's Skill Level when it plays (SKILL_FULL: full strength)
    bool clocked; // clocks run (base + inc play)
    int64_t clock_ms[2];
    int64_t turn_start_ms; // when the side to move's clock started
    bool analysing;
    GameAnalysis ga;
    Line lines[GUI_LINES_MAX];
    // PDN library.
    PdnGame *library;
    int nlibrary;
    // Events.
    char *events[GUI_EVENTS];
    uint64_t head;    // number of events so far
    uint64_t version; // bumped at every change: a page keeps the newest state it saw
};

static inline int64_t now_ms(void) { return util_now_ms(); }

// ---- session.c ------------------------------------------------------------------------------

// Adds a live event (an SSE frame: its name and JSON data). With the lock held, as below.
void session_push_event(Session *s, const char *name, const char *json);
// The whole state as an event, after a change.
void session_publish_state(Session *s);
// The position after `ply` plies of the game, and the game cut there.
void session_game_at(const Session *s, int ply, Game *out);
Side session_side_to_move(const Session *s);
// True when it is the engine's move in the shown position (the end of the game line).
bool session_engine_moves(const Session *s);
// Plays m (legal at the end of the game line) and charges the mover's clock.
void session_play_move(Session *s, const Move *m);
void session_clear_lines(Session *s);
// Ends the whole-game analysis, if it runs (the game changed, or play or analysis starts).
void session_stop_game_analysis(Session *s);

// ---- driver.c -------------------------------------------------------------------------------

// Starts the engine and does the handshake with the lock released for the while; false (said
// in the state) when it does not start. The reader thread's alone.
bool driver_start(Session *s);
// Drops the results of every search sent and stops the running one.
void driver_cancel(Session *s);
// Starts what the engine should do now: its move, pondering, or analysis.
void driver_work(Session *s);
// The position changed under the engine: drop what it searches and start again.
void driver_restart(Session *s);
// The time a move of the side to move may take (the clock, or the time per move).
int64_t driver_budget(const Session *s);
// The engine's reader thread: reads its lines, watches its health and the clocks.
void *driver_reader(void *arg);

#endif
