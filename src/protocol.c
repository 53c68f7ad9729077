// SPDX-License-Identifier: MIT
// Owns the front end's common part: the bounded line reader, tokenising, output and error
// replies, the choice of dialect and the command line of the protocol.
#include "protocol.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

void proto_init(Proto *p, Engine *e, FILE *in, FILE *out, const ProtoDialect *const dialects[2],
                const ProtoDialect *dialect)
{
    memset(p, 0, sizeof *p);
    p->engine = e;
    p->in = in;
    p->out = out;
    pthread_mutex_init(&p->out_mu, NULL);
    p->dialects[0] = dialects[0];
    p->dialects[1] = dialects[1];
    p->dialect = dialect;
}

void proto_free(Proto *p) { pthread_mutex_destroy(&p->out_mu); }

void proto_write(Proto *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&p->out_mu);
    vfprintf(p->out, fmt, ap);
    fputc('\n', p->out);
    fflush(p->out);
    pthread_mutex_unlock(&p->out_mu);
    va_end(ap);
}

void proto_error(Proto *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    // Keep the reply on one line and free of quotes that would break Hub's key="value".
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '"' || !isprint((unsigned char)*c))
            *c = '?';
    const ProtoDialect *d = p->dialect ? p->dialect : p->dialects[0];
    proto_write(p, "%s%s%s", d->error_prefix, msg, d->error_suffix);
}

void proto_with_output(Proto *p, void (*job)(void *ctx, FILE *out), void *ctx)
{
    pthread_mutex_lock(&p->out_mu);
    job(ctx, p->out);
    fflush(p->out);
    pthread_mutex_unlock(&p->out_mu);
}

void proto_go(Proto *p, const EngineGo *go, EngineInfoFn on_info, EngineBestFn on_best,
              const char *no_move_reply)
{
    proto_stop_search(p);
    p->searching = true;
    if (!engine_go(p->engine, go, on_info, on_best, p)) {
        p->searching = false;
        proto_error(p, "game over, no legal move");
        proto_write(p, "%s", no_move_reply);
    }
}

void proto_stop_search(Proto *p)
{
    engine_stop(p->engine);
    p->searching = false;
}

void proto_moves_text(const Move *moves, int n, MoveFormat fmt, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + MOVE_TEXT_MAX + 1 < len; i++) {
        char m[MOVE_TEXT_MAX];
        notation_move(&moves[i], fmt, m, sizeof m);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", m);
    }
}

uint64_t proto_nps(const EngineInfo *r)
{
    return r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : r->nodes * 1000;
}

void proto_write_best(Proto *p, const EngineResult *r, MoveFormat fmt, const char *move_key,
                      const char *ponder_key, const char *none_reply)
{
    char best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    if (!r->has_best) {
        proto_write(p, "%s", none_reply);
        return;
    }
    notation_move(&r->best, fmt, best, sizeof best);
    if (r->has_ponder) {
        notation_move(&r->ponder, fmt, ponder, sizeof ponder);
        proto_write(p, "%s%s%s%s", move_key, best, ponder_key, ponder);
    } else {
        proto_write(p, "%s%s", move_key, best);
    }
}

int proto_tokenize(char *line, char **tokens, int max)
{
    int n = 0;
    char *s = line;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            *s++ = '\0';
        if (!*s)
            break;
        if (n == max)
            return -1;
        tokens[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
    }
    return n;
}

// True when the line holds only printable characters, spaces and tabs.
static bool is_text(const char *line)
{
    for (const unsigned char *c = (const unsigned char *)line; *c; c++)
        if (*c != '\t' && (*c < 32 || *c > 126))
            return false;
    return true;
}

// The dialect the first line asks for: the one it names, else the default.
static const ProtoDialect *choose_dialect(const Proto *p, const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(p->dialects[i]->name);
        if (strncmp(line, p->dialects[i]->name, n) == 0 &&
            (line[n] == '\0' || line[n] == ' ' || line[n] == '\t'))
            return p->dialects[i];
    }
    return p->dialects[0];
}

bool proto_handle_line(Proto *p, char *line)
{
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
        line[--len] = '\0';
    if (!is_text(line)) {
        proto_error(p, "line contains non-text bytes; ignored");
        return true;
    }
    if (!p->dialect) {
        if (strspn(line, " \t") == len)
            return true; // an empty first line chooses nothing
        p->dialect = choose_dialect(p, line);
    }
    return p->dialect->handle(p, line);
}

// Reads one line of at most PROTO_LINE_MAX bytes into buf. Returns 0 at end of input, 1 for a
// line, -1 for an over-long line (the rest of it is skipped).
static int read_line(FILE *in, char *buf, size_t size)
{
    if (!fgets(buf, (int)size, in))
        return 0;
    size_t len = strlen(buf);
    if (len == size - 1 && buf[len - 1] != '\n') {
        int c;
        while ((c = fgetc(in)) != EOF && c != '\n')
            ;
        return -1;
    }
    return 1;
}

void proto_loop(Proto *p)
{
    char buf[PROTO_LINE_MAX + 2];
    for (;;) {
        int r = read_line(p->in, buf, sizeof buf);
        if (r == 0)
            break; // end of input acts as quit
        if (r < 0) {
            proto_error(p, "line longer than %d bytes; ignored", PROTO_LINE_MAX);
            continue;
        }
        if (!proto_handle_line(p, buf))
            return;
    }
    proto_stop_search(p);
}

int proto_main(int argc, char **argv, const ProtoDialect *uci, const ProtoDialect *hub)
{
    const ProtoDialect *dialects[2] = {uci, hub}, *dialect = NULL;
    if (argc >= 1) {
        if (strcmp(argv[0], "--version") == 0) {
            printf("%s %s (%s)\n", DAMKA_NAME, DAMKA_VERSION, DAMKA_ARCH);
            return 0;
        }
        if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
            printf("usage: damka [uci | hub | perft <depth> [FEN] | bench [depth] [threads] "
                   "[hash_mb] | --version | --help]\n"
                   "With no argument (or uci) it reads UCI-style commands on stdin; "
                   "'hub' selects Scan's Hub protocol. Type 'help' at the prompt.\n");
            return 0;
        }
        for (int i = 0; i < 2; i++)
            if (strcmp(argv[0], dialects[i]->name) == 0)
                dialect = dialects[i];
        if (!dialect) {
            printf("error: unknown argument '%s' (try --help)\n", argv[0]);
            return 2;
        }
    }
    Engine *engine = engine_new();
    if (!engine) {
        printf("error: cannot allocate the engine\n");
        return 1;
    }
    platform_binary_stdio(); // lines end in '\n' on every system
    Proto p;
    proto_init(&p, engine, stdin, stdout, dialects, dialect);
    p.interactive = platform_stdin_is_terminal();
    if (p.interactive && dialect != hub)
        proto_write(&p, "%s %s, a Russian draughts engine. Type 'help' for the commands.",
                    DAMKA_NAME, DAMKA_VERSION);
    proto_loop(&p);
    engine_free(engine);
    proto_free(&p);
    return 0;
}
