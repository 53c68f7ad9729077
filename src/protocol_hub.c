// SPDX-License-Identifier: MIT
// Owns the Hub dialect (Scan protocol v2, 8x8 Russian): key=value lines for pydraughts and
// lidraughts-bot.
#include "protocol_hub.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


enum { HUB_ARGS_MAX = 32 };

typedef struct HubArgs {
    int n;
    char *key[HUB_ARGS_MAX];
    char *val[HUB_ARGS_MAX]; // NULL for a bare word
} HubArgs;

// Splits "cmd k=v k="v w" word" in place. Returns the command, or NULL with *err set.
static char *parse_args(char *line, HubArgs *a, const char **err)
{
    char *s = line, *cmd = NULL;
    a->n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        char *start = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '=')
            s++;
        char *value = NULL;
        if (*s == '=') {
            *s++ = '\0';
            if (*s == '"') {
                value = ++s;
                while (*s && *s != '"')
                    s++;
                if (*s != '"') {
                    *err = "unterminated quote";
                    return NULL;
                }
                *s++ = '\0';
            } else {
                value = s;
                while (*s && *s != ' ' && *s != '\t')
                    s++;
            }
        }
        if (*s)
            *s++ = '\0';
        if (!cmd) {
            if (value) {
                *err = "a line must start with a command";
                return NULL;
            }
            cmd = start;
            continue;
        }
        if (a->n == HUB_ARGS_MAX) {
            *err = "too many arguments";
            return NULL;
        }
        a->key[a->n] = start;
        a->val[a->n++] = value;
    }
    if (!cmd)
        *err = "empty line";
    return cmd;
}

static const char *arg(const HubArgs *a, const char *key)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->key[i], key) == 0)
            return a->val[i] ? a->val[i] : "";
    return NULL;
}

static bool has_word(const HubArgs *a, const char *word)
{
    for (int i = 0; i < a->n; i++)
        if (!a->val[i] && strcmp(a->key[i], word) == 0)
            return true;
    return false;
}

// Parses seconds (a real number) into milliseconds, in 0..max_s seconds.
static bool parse_seconds(const char *s, double max_s, int64_t *ms)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    double v = strtod(s, &end);
    if (*end || !isfinite(v) || v < 0 || v > max_s)
        return false;
    *ms = (int64_t)(v * 1000.0 + 0.5);
    return true;
}

static void hub_hello(Proto *p)
{
    proto_write(p, "id name=%s version=%s author=\"%s\" country=none", DAMKA_NAME, DAMKA_VERSION,
                DAMKA_AUTHOR);
    proto_write(p, "param name=variant value=russian type=enum values=\"russian\"");
    proto_write(p, "param name=threads value=%d type=int min=1 max=%d", p->engine->threads,
                ENGINE_THREADS_MAX);
    proto_write(p, "param name=hash value=%zu type=int min=%d max=%d", p->engine->tt.megabytes,
                TT_MB_MIN, TT_MB_MAX);
    proto_write(p, "param name=ponder value=%s type=bool", p->ponder ? "true" : "false");
    proto_write(p, "param name=square-numbering value=%s type=enum values=\"b8 a1\"",
                p->hub_format == MOVE_FMT_HUB_A1 ? "a1" : "b8");
    proto_write(p, "wait");
}

static void hub_set_param(Proto *p, const HubArgs *a)
{
    const char *name = arg(a, "name"), *value = arg(a, "value");
    int64_t v;
    if (!name || !value) {
        proto_error(p, "set-param needs name=<n> value=<v>");
        return;
    }
    proto_stop_search(p);
    if (strcmp(name, "variant") == 0) {
        if (strcmp(value, "russian") != 0)
            proto_error(p, "variant: only russian is played");
    } else if (strcmp(name, "threads") == 0) {
        if (!proto_parse_int(value, 1, ENGINE_THREADS_MAX, &v) ||
            !engine_set_threads(p->engine, (int)v))
            proto_error(p, "threads must be 1..%d", ENGINE_THREADS_MAX);
    } else if (strcmp(name, "hash") == 0) {
        if (!proto_parse_int(value, TT_MB_MIN, TT_MB_MAX, &v))
            proto_error(p, "hash must be %d..%d MB", TT_MB_MIN, TT_MB_MAX);
        else if (!engine_set_hash(p->engine, (size_t)v))
            proto_error(p, "cannot allocate %lld MB of hash; keeping %zu MB", (long long)v,
                        p->engine->tt.megabytes);
    } else if (strcmp(name, "ponder") == 0) {
        if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
            p->ponder = value[0] == 't';
        else
            proto_error(p, "ponder must be true or false");
    } else if (strcmp(name, "square-numbering") == 0) {
        if (strcmp(value, "b8") == 0)
            p->hub_format = MOVE_FMT_HUB;
        else if (strcmp(value, "a1") == 0)
            p->hub_format = MOVE_FMT_HUB_A1;
        else
            proto_error(p, "square-numbering must be b8 or a1");
    } else {
        proto_error(p, "unknown param '%.40s'", name);
    }
}

static void hub_pos(Proto *p, const HubArgs *a)
{
    const char *pos = arg(a, "pos"), *moves = arg(a, "moves");
    char err[ENGINE_ERR_MAX], buf[PROTO_LINE_MAX];
    char *tok[PROTO_TOKENS_MAX];
    if (!pos) {
        proto_error(p, "pos needs pos=<33 characters>");
        return;
    }
    int n = 0;
    if (moves) {
        snprintf(buf, sizeof buf, "%s", moves);
        n = proto_tokenize(buf, tok, PROTO_TOKENS_MAX);
        if (n < 0) {
            proto_error(p, "too many moves");
            return;
        }
    }
    proto_stop_search(p);
    if (!engine_set_hub_position(p->engine, pos, (const char *const *)tok, n, p->hub_format, err,
                                 sizeof err))
        proto_error(p, "%s (position unchanged)", err);
}

// Reads a `level` line into *out; false after an error reply.
static bool parse_level(Proto *p, const HubArgs *a, HubLevel *out)
{
    HubLevel l = {.move_time_ms = -1, .time_ms = -1};
    int64_t v;
    const char *s;
    bool any = false;
    if (has_word(a, "infinite"))
        l.infinite = any = true;
    if ((s = arg(a, "depth"))) {
        if (!proto_parse_int(s, 1, MAX_PLY - 1, &v))
            return proto_error(p, "depth must be 1..%d", MAX_PLY - 1), false;
        l.depth = (Depth)v, any = true;
    }
    if ((s = arg(a, "nodes"))) {
        if (!proto_parse_int(s, 1, INT64_C(1) << 50, &v))
            return proto_error(p, "nodes must be a positive count"), false;
        l.nodes = (uint64_t)v, any = true;
    }
    if ((s = arg(a, "move-time"))) {
        if (!parse_seconds(s, 1e7, &l.move_time_ms) || l.move_time_ms < 1)
            return proto_error(p, "move-time must be seconds > 0"), false;
        any = true;
    }
    if ((s = arg(a, "time"))) {
        if (!parse_seconds(s, 1e9, &l.time_ms))
            return proto_error(p, "time must be seconds >= 0"), false;
        any = true;
    }
    if ((s = arg(a, "inc")) && !parse_seconds(s, 1e7, &l.inc_ms))
        return proto_error(p, "inc must be seconds >= 0"), false;
    if ((s = arg(a, "moves"))) {
        if (!proto_parse_int(s, 1, 10000, &v))
            return proto_error(p, "moves must be 1..10000"), false;
        l.moves = (int)v;
    }
    if (!any)
        return proto_error(p, "level needs depth=, nodes=, move-time=, time= or infinite"), false;
    *out = l;
    return true;
}

static void hub_info(void *ctx, const SearchReport *r)
{
    Proto *p = ctx;
    char pv[PROTO_LINE_MAX / 2] = "";
    size_t len = 0;
    for (int i = 0; i < r->pvlen && len < sizeof pv - MOVE_TEXT_MAX; i++) {
        char m[MOVE_TEXT_MAX];
        notation_move(&r->pv[i], p->hub_format, m, sizeof m);
        len += (size_t)snprintf(pv + len, sizeof pv - len, "%s%s", i ? " " : "", m);
    }
    double secs = (double)r->time_ms / 1000.0;
    double mnps = r->time_ms > 0 ? (double)r->nodes / (double)r->time_ms / 1000.0 : 0.0;
    proto_write(p, "info depth=%d mean-depth=%.2f score=%.2f nodes=%llu time=%.3f nps=%.2f pv=\"%s\"",
                r->depth, (double)r->seldepth, (double)r->score / 100.0,
                (unsigned long long)r->nodes, secs, mnps, pv);
}

static void hub_done(void *ctx, const SearchShared *sh)
{
    Proto *p = ctx;
    char best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    if (!sh->has_best) {
        proto_write(p, "done");
        return;
    }
    notation_move(&sh->best, p->hub_format, best, sizeof best);
    if (sh->has_ponder) {
        notation_move(&sh->ponder, p->hub_format, ponder, sizeof ponder);
        proto_write(p, "done move=%s ponder=%s", best, ponder);
    } else {
        proto_write(p, "done move=%s", best);
    }
}

static void hub_go(Proto *p, const HubArgs *a)
{
    bool think = has_word(a, "think"), ponder = has_word(a, "ponder"),
         analyze = has_word(a, "analyze");
    if (think + ponder + analyze != 1) {
        proto_error(p, "go needs one of think, ponder, analyze");
        return;
    }
    SearchLimits l;
    memset(&l, 0, sizeof l);
    const HubLevel *lv = &p->level;
    l.multipv = 1;
    l.depth = lv->depth;
    l.nodes = lv->nodes;
    l.infinite = analyze || lv->infinite;
    l.analysis = analyze;
    l.ponder = ponder;
    l.time = (TimeInput){lv->time_ms, lv->inc_ms, lv->moves, lv->move_time_ms, p->move_overhead_ms};
    // Hub adds the increment before the move: the clock given already includes it.
    if (lv->time_ms >= 0)
        l.time.inc_ms = 0, l.time.time_ms = lv->time_ms + lv->inc_ms;
    proto_go(p, &l, hub_info, hub_done, "done");
}

bool hub_handle_line(Proto *p, char *line)
{
    HubArgs a;
    const char *err = NULL;
    char *cmd = parse_args(line, &a, &err);
    if (!cmd) {
        if (strcmp(err, "empty line") != 0)
            proto_error(p, "%s", err);
        return true;
    }
    if (strcmp(cmd, "hub") == 0) {
        hub_hello(p);
    } else if (strcmp(cmd, "ping") == 0) {
        proto_write(p, "pong");
    } else if (strcmp(cmd, "stop") == 0) {
        proto_stop_search(p);
    } else if (strcmp(cmd, "ponder-hit") == 0) {
        if (p->searching)
            engine_ponderhit(p->engine);
    } else if (strcmp(cmd, "quit") == 0) {
        proto_stop_search(p);
        return false;
    } else if (strcmp(cmd, "init") == 0) {
        proto_stop_search(p);
        proto_write(p, "ready");
    } else if (strcmp(cmd, "set-param") == 0) {
        hub_set_param(p, &a);
    } else if (strcmp(cmd, "new-game") == 0) {
        proto_stop_search(p);
        engine_new_game(p->engine);
    } else if (strcmp(cmd, "pos") == 0) {
        hub_pos(p, &a);
    } else if (strcmp(cmd, "level") == 0) {
        parse_level(p, &a, &p->level);
    } else if (strcmp(cmd, "go") == 0) {
        hub_go(p, &a);
    } else {
        proto_error(p, "unknown command '%.40s'", cmd);
    }
    return true;
}
