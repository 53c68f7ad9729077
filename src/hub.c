// SPDX-License-Identifier: MIT
// Owns the Hub dialect (Scan protocol v2, 8x8 Russian): key=value lines for pydraughts and
// lidraughts-bot, params from the options table, scores on Scan's scale.
#include "hub.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum {
    HUB_ARGS_MAX = 32,
    // Scan's score scale, in centi-men: a win found by search is 100 men minus the distance
    // in plies / 100 (99.xx), a database win 89.xx, and evaluations stay below both.
    HUB_SEARCH_WIN = 10000,
    HUB_DB_WIN = 8900,
    HUB_EVAL_MAX = 8000,
};

typedef struct HubArgs {
    int n;
    char *key[HUB_ARGS_MAX];
    char *val[HUB_ARGS_MAX]; // NULL for a bare word
} HubArgs;

// Reads one word or key=value (value quoted or not) at s, ending it in place. Returns the
// position after it, or NULL with *err set.
static char *parse_word(char *s, char **key, char **value, const char **err)
{
    *key = s;
    *value = NULL;
    while (*s && *s != ' ' && *s != '\t' && *s != '=')
        s++;
    if (*s == '=') {
        *s++ = '\0';
        if (*s == '"') {
            *value = ++s;
            while (*s && *s != '"')
                s++;
            if (*s != '"') {
                *err = "unterminated quote";
                return NULL;
            }
            *s++ = '\0';
        } else {
            *value = s;
            while (*s && *s != ' ' && *s != '\t')
                s++;
        }
    }
    if (*s)
        *s++ = '\0';
    return s;
}

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
        char *key, *value;
        if (!(s = parse_word(s, &key, &value, err)))
            return NULL;
        if (!cmd) {
            if (value) {
                *err = "a line must start with a command";
                return NULL;
            }
            cmd = key;
            continue;
        }
        if (a->n == HUB_ARGS_MAX) {
            *err = "too many arguments";
            return NULL;
        }
        a->key[a->n] = key;
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

static void hub_hello(Proto *p)
{
    proto_write(p, "id name=%s version=%s author=\"%s\" country=none", DAMKA_NAME, DAMKA_VERSION,
                DAMKA_AUTHOR);
    for (int i = 0; i < options_count(); i++) {
        const Option *o = options_at(i);
        const char *name = o->name[OPTION_HUB];
        char value[OPTION_TEXT_MAX], line[PROTO_LINE_MAX];
        if (!name || o->unlisted || o->type == OPTION_IGNORED || o->type == OPTION_BUTTON)
            continue;
        if (o->type == OPTION_STRING) {
            options_current_text(p->engine, o, line, sizeof line);
            proto_write(p, "param name=%s value=\"%s\" type=string", name, line);
            continue;
        }
        options_value_text(o, o->get(p->engine), value, sizeof value);
        if (o->type == OPTION_SPIN) {
            proto_write(p, "param name=%s value=%s type=int min=%lld max=%lld", name, value,
                        (long long)o->min, (long long)o->max);
        } else if (o->type == OPTION_CHECK) {
            proto_write(p, "param name=%s value=%s type=bool", name, value);
        } else {
            size_t n = (size_t)snprintf(line, sizeof line,
                                        "param name=%s value=%s type=enum values=\"", name, value);
            for (int k = 0; k < OPTION_CHOICES_MAX && o->choices[k]; k++)
                n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", k ? " " : "",
                                      o->choices[k]);
            proto_write(p, "%s\"", line);
        }
    }
    proto_write(p, "wait");
}

static void hub_set_param(Proto *p, const HubArgs *a)
{
    const char *name = arg(a, "name"), *value = arg(a, "value");
    char err[ENGINE_ERR_MAX];
    if (!name || !value) {
        proto_error(p, "set-param needs name=<n> value=<v>");
        return;
    }
    const Option *o = options_find(OPTION_HUB, name);
    if (!o) {
        proto_error(p, "unknown param '%.40s'", name);
        return;
    }
    proto_stop_search(p);
    err[0] = '\0';
    if (!options_set(p->engine, o, OPTION_HUB, value, err, sizeof err) || err[0])
        proto_error(p, "%s", err); // a failure, or a warning of an option that was applied
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
    if (!engine_set_hub_position(p->engine, pos, (const char *const *)tok, n,
                                 engine_hub_format(p->engine), err, sizeof err))
        proto_error(p, "%s (position unchanged)", err);
}

// Reads a `level` line into *out; false after an error reply (and *out unchanged).
static bool parse_level(Proto *p, const HubArgs *a, EngineGo *out)
{
    EngineGo l;
    memset(&l, 0, sizeof l);
    int64_t v, time_ms = 0, inc_ms = 0, move_time_ms = 0, moves = 0;
    bool any = false, has_time = false;
    const char *s;
    if (has_word(a, "infinite"))
        l.infinite = any = true;
    if ((s = arg(a, "depth"))) {
        if (!util_parse_int(s, 1, MAX_PLY - 1, &v))
            return proto_error(p, "depth must be 1..%d", MAX_PLY - 1), false;
        l.depth = (Depth)v, any = true;
    }
    if ((s = arg(a, "nodes"))) {
        if (!util_parse_int(s, 1, INT64_C(1) << 50, &v))
            return proto_error(p, "nodes must be a positive count"), false;
        l.nodes = (uint64_t)v, any = true;
    }
    if ((s = arg(a, "move-time"))) {
        if (!util_parse_seconds(s, -1e7, 1e7, &move_time_ms))
            return proto_error(p, "move-time must be a number of seconds"), false;
        // No time (under 1 ms, 0 or negative) is a zero clock: the move found at once (the
        // search always completes depth 1). A client's Limit(movetime=0) must not hang.
        if (move_time_ms < 1)
            move_time_ms = 1;
        any = true;
    }
    // A negative clock (clients send the clock minus the increment) means: play on the
    // increment.
    if ((s = arg(a, "time"))) {
        if (!util_parse_seconds(s, -1e9, 1e9, &time_ms))
            return proto_error(p, "time must be a number of seconds"), false;
        any = has_time = true;
    }
    if ((s = arg(a, "inc")) && !util_parse_seconds(s, -1e7, 1e7, &inc_ms))
        return proto_error(p, "inc must be a number of seconds"), false;
    if ((s = arg(a, "moves")) && !util_parse_int(s, 1, 10000, &moves))
        return proto_error(p, "moves must be 1..10000"), false;
    // handicap= weakens the engine until the next handicap= (alone, it keeps the time level).
    int64_t handicap = -1;
    if ((s = arg(a, "handicap")) && !util_parse_int(s, 0, ENGINE_HANDICAP_MAX, &handicap))
        return proto_error(p, "handicap must be 0..%d (0: full strength)", ENGINE_HANDICAP_MAX),
               false;
    if (!any && handicap < 0)
        return proto_error(p, "level needs depth=, nodes=, move-time=, time=, infinite or "
                              "handicap="),
               false;
    if (handicap >= 0) {
        proto_stop_search(p);
        engine_set_handicap(p->engine, handicap);
    }
    if (!any)
        return true;
    l.time = engine_hub_clock(has_time, time_ms, inc_ms, (int)moves, move_time_ms);
    *out = l;
    return true;
}

// A score on Scan's scale, in centi-men.
static int hub_score(Score s)
{
    int plies = engine_win_plies(s), db = engine_egdb_score(s);
    if (plies > 0)
        return HUB_SEARCH_WIN - plies;
    if (plies < 0)
        return -HUB_SEARCH_WIN - plies;
    if (db) // a database win: 89.01 .. 89.99
        return db > 0 ? HUB_DB_WIN + db : -HUB_DB_WIN + db;
    return s > HUB_EVAL_MAX ? HUB_EVAL_MAX : s < -HUB_EVAL_MAX ? -HUB_EVAL_MAX : s;
}

static void hub_info(void *ctx, const EngineInfo *r)
{
    Proto *p = ctx;
    char pv[PROTO_LINE_MAX / 2];
    proto_moves_text(r->pv, r->pvlen, engine_hub_format(p->engine), pv, sizeof pv);
    proto_write(
        p, "info depth=%d mean-depth=%.2f score=%.2f nodes=%llu time=%.3f nps=%.2f pv=\"%s\"",
        r->depth, (double)r->seldepth, (double)hub_score(r->score) / 100.0,
        (unsigned long long)r->nodes, (double)r->time_ms / 1000.0, (double)proto_nps(r) / 1e6, pv);
}

static void hub_done(void *ctx, const EngineResult *r)
{
    Proto *p = ctx;
    proto_write_best(p, r, engine_hub_format(p->engine), "done move=", " ponder=", "done");
}

static void hub_go(Proto *p, const HubArgs *a)
{
    bool think = has_word(a, "think"), ponder = has_word(a, "ponder"),
         analyze = has_word(a, "analyze");
    if (think + ponder + analyze != 1) {
        proto_error(p, "go needs one of think, ponder, analyze");
        return;
    }
    EngineGo go = p->level;
    go.infinite = analyze || p->level.infinite;
    go.analysis = analyze;
    go.ponder = ponder;
    proto_go(p, &go, hub_info, hub_done, "done");
}

static bool hub_handle(Proto *p, char *line)
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

static const ProtoDialect HUB = {"hub", hub_handle, "error message=\"", "\""};

const ProtoDialect *hub_dialect(void) { return &HUB; }
