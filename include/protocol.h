// SPDX-License-Identifier: MIT
// The front end's common part: the bounded line reader, tokeniser, writer and error replies,
// on one engine, for the two dialects (uci.c and hub.c), which never include each other.
#ifndef PROTOCOL_H_INCLUDED
#define PROTOCOL_H_INCLUDED

#include <pthread.h>
#include <stdio.h>

#include "engine.h"
#include "util.h"

#define DAMKA_AUTHOR "the Damka developers"
#ifndef DAMKA_ARCH
#define DAMKA_ARCH "unknown"
#endif

enum {
    PROTO_LINE_MAX = 8192,   // longer input lines are refused whole
    PROTO_TOKENS_MAX = 1100, // words of one line: a `position` of 1,000 moves and its keywords
};

typedef struct Proto Proto;

// One dialect: its line handler and the form of its error replies.
typedef struct ProtoDialect {
    const char *name;                     // "uci", "hub": the word that selects it
    bool (*handle)(Proto *p, char *line); // handles one line; false once the session ends
    const char *error_prefix;             // an error line is prefix, reason, suffix
    const char *error_suffix;
} ProtoDialect;

struct Proto {
    Engine *engine;
    FILE *in;
    FILE *out;
    pthread_mutex_t out_mu;          // search threads and the reader both write
    const ProtoDialect *dialects[2]; // UCI-style first: the default
    const ProtoDialect *dialect;     // NULL until the first line chooses
    bool interactive;                // stdin is a terminal: banner for people
    bool searching;                  // a go was started and not stopped since (it may have
                                     // ended by itself): only then is ponderhit passed on
    EngineGo level;                  // standing limits (Hub `level`), kept between searches
};

// Sets up a front end on the given streams and engine (which it does not own). dialect is the
// one to speak, or NULL to choose by the first line (the name of one of dialects, else the
// first of them).
void proto_init(Proto *p, Engine *e, FILE *in, FILE *out, const ProtoDialect *const dialects[2],
                const ProtoDialect *dialect);
void proto_free(Proto *p);

// Handles one input line (without its newline); returns false once the session should end.
bool proto_handle_line(Proto *p, char *line);

// Reads and handles lines until quit or end of input (which acts as quit).
void proto_loop(Proto *p);

// Runs the protocol on stdin/stdout; args are the command-line words after the program name.
int proto_main(int argc, char **argv, const ProtoDialect *uci, const ProtoDialect *hub);

// Writes one line (printf-style) under the output lock and flushes it.
void proto_write(Proto *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Writes one error line in the current dialect's form.
void proto_error(Proto *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Stops any running search, then starts one with the given reporters; when the side to move
// has no legal move, replies with an error and no_move_reply instead.
void proto_go(Proto *p, const EngineGo *go, EngineInfoFn on_info, EngineBestFn on_best,
              const char *no_move_reply);

// Stops a running search and waits for its final reply.
void proto_stop_search(Proto *p);

// The final reply of a search: `<move_key><move>[<ponder_key><move>]`, or none_reply when
// there was no move.
void proto_write_best(Proto *p, const EngineResult *r, MoveFormat fmt, const char *move_key,
                      const char *ponder_key, const char *none_reply);

// Writes moves as text separated by spaces into buf (cut at a whole move when it is full).
void proto_moves_text(const Move *moves, int n, MoveFormat fmt, char *buf, size_t len);

// Nodes per second of a report.
uint64_t proto_nps(const EngineInfo *r);

// Splits line in place at spaces and tabs; returns the token count, or -1 past max.
int proto_tokenize(char *line, char **tokens, int max);

// Runs job(ctx, out) with the output stream locked (bench, perft and eval print to it).
void proto_with_output(Proto *p, void (*job)(void *ctx, FILE *out), void *ctx);

#endif
