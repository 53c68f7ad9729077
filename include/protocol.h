// SPDX-License-Identifier: MIT
// Text protocol front end: UCI-style and Hub dialects on one engine; the only writer to stdout.
#ifndef PROTOCOL_H_INCLUDED
#define PROTOCOL_H_INCLUDED

#include <pthread.h>
#include <stdio.h>

#include "engine.h"

#define DAMKA_NAME "Damka"
#define DAMKA_VERSION "0.1"
#define DAMKA_AUTHOR "the Damka developers"

enum {
    PROTO_LINE_MAX = 8192,   // longer input lines are refused whole
    PROTO_TOKENS_MAX = 1100, // enough for a game of MAX_GAME_PLIES/4 moves... see proto_tokenize
    MOVE_OVERHEAD_DEFAULT = 30,
    MOVE_OVERHEAD_MAX = 10000,
};

typedef enum Dialect { DIALECT_UNKNOWN, DIALECT_UCI, DIALECT_HUB } Dialect;

// Hub `level` settings, kept until the next `level`.
typedef struct HubLevel {
    Depth depth;
    uint64_t nodes;
    int64_t move_time_ms; // -1 = unset
    int64_t time_ms;      // -1 = unset
    int64_t inc_ms;
    int moves;
    bool infinite;
} HubLevel;

typedef struct Proto {
    Engine *engine;
    FILE *in;
    FILE *out;
    pthread_mutex_t out_mu;  // search threads and the reader both write
    Dialect dialect;
    bool interactive;        // stdin is a terminal: banner and prompts for people
    bool quit;
    bool searching;          // a go is running (its bestmove/done not yet printed)
    // Options.
    int multipv;
    bool ponder;
    int64_t move_overhead_ms;
    bool analyse_mode;
    MoveFormat move_format;  // UCI output format
    MoveFormat hub_format;   // MOVE_FMT_HUB or MOVE_FMT_HUB_A1 (square-numbering)
    HubLevel level;
} Proto;

// Sets up a front end on the given streams and engine (which it does not own).
void proto_init(Proto *p, Engine *e, FILE *in, FILE *out);
void proto_free(Proto *p);

// Handles one input line (without its newline); returns false once the session should end.
bool proto_handle_line(Proto *p, char *line);

// Reads and handles lines until quit or end of input (which acts as quit).
void proto_loop(Proto *p);

// Runs the protocol on stdin/stdout; args are the command-line words after the program name.
int proto_main(int argc, char **argv);

// Writes one line (printf-style) under the output lock and flushes it.
void proto_write(Proto *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Writes one error line in the current dialect's form.
void proto_error(Proto *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Stops any running search, then starts one with the given reporters; when the side to move
// has no legal move, replies with an error and no_move_reply instead.
void proto_go(Proto *p, const SearchLimits *limits, SearchInfoFn on_info, EngineBestFn on_best,
              const char *no_move_reply);

// Stops a running search and waits for its final reply.
void proto_stop_search(Proto *p);

// Splits line in place at spaces and tabs; returns the token count (at most max).
int proto_tokenize(char *line, char **tokens, int max);

// Parses an integer in lo..hi; false if it is not one.
bool proto_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);

#endif
