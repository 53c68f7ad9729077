// SPDX-License-Identifier: MIT
// Owns the UCI-style dialect: options from the options table, position, go and its limits,
// info and bestmove lines, and the commands for people (d, eval, bench, help).
#include "uci.h"

#include <string.h>

#include "bench.h"
#include "options.h"

static void uci_hello(Proto *p)
{
    proto_write(p, "id name %s %s", DAMKA_NAME, DAMKA_VERSION);
    proto_write(p, "id author %s", DAMKA_AUTHOR);
    for (int i = 0; i < options_count(); i++) {
        const Option *o = options_at(i);
        const char *name = o->name[OPTION_UCI];
        char def[OPTION_TEXT_MAX], line[PROTO_LINE_MAX];
        if (!name || o->unlisted || o->type == OPTION_IGNORED)
            continue;
        options_value_text(o, o->def, def, sizeof def);
        switch (o->type) {
        case OPTION_SPIN:
            proto_write(p, "option name %s type spin default %s min %lld max %lld", name, def,
                        (long long)o->min, (long long)o->max);
            break;
        case OPTION_CHECK:
            proto_write(p, "option name %s type check default %s", name, def);
            break;
        case OPTION_COMBO: {
            size_t n = (size_t)snprintf(line, sizeof line, "option name %s type combo default %s",
                                        name, def);
            for (int k = 0; k < OPTION_CHOICES_MAX && o->choices[k]; k++)
                n += (size_t)snprintf(line + n, sizeof line - n, " var %s", o->choices[k]);
            proto_write(p, "%s", line);
            break;
        }
        case OPTION_STRING:
            options_current_text(p->engine, o, line, sizeof line);
            proto_write(p, "option name %s type string default %s", name, line);
            break;
        default:
            proto_write(p, "option name %s type button", name);
            break;
        }
    }
    proto_write(p, "uciok");
}

// Joins tok[from..to) with single spaces into buf.
static void join(char **tok, int from, int to, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = from; i < to && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i > from ? " " : "", tok[i]);
}

// `setoption name <id...> [value <x...>]`: the name and the value may contain spaces.
static void uci_setoption(Proto *p, char **tok, int n)
{
    char name[128], value[4096], err[ENGINE_ERR_MAX];
    if (n < 3 || strcmp(tok[1], "name") != 0) {
        proto_error(p, "setoption needs: setoption name <id> [value <x>]");
        return;
    }
    int i = 2;
    while (i < n && strcmp(tok[i], "value") != 0)
        i++;
    join(tok, 2, i, name, sizeof name);
    join(tok, i + 1, n, value, sizeof value);
    const Option *o = options_find(OPTION_UCI, name);
    if (!o) {
        proto_error(p, "unknown option '%s'", name);
        return;
    }
    proto_stop_search(p);
    err[0] = '\0';
    if (!options_set(p->engine, o, OPTION_UCI, i < n ? value : NULL, err, sizeof err) || err[0])
        proto_error(p, "%s", err); // a failure, or a warning of an option that was applied
}

// `position startpos|fen <FEN> [moves m1 m2 ...]`, all or nothing.
static void uci_position(Proto *p, char **tok, int n)
{
    char err[ENGINE_ERR_MAX];
    const char *fen = NULL;
    int i = 1;
    if (n >= 2 && strcmp(tok[1], "startpos") == 0) {
        i = 2;
    } else if (n >= 3 && strcmp(tok[1], "fen") == 0) {
        fen = tok[2];
        i = 3;
        if (i < n && strcmp(tok[i], "moves") != 0) {
            proto_error(p, "FEN must be one word, then 'moves' (got '%.40s')", tok[i]);
            return;
        }
    } else {
        proto_error(p, "position needs startpos or fen <FEN>");
        return;
    }
    if (i < n && strcmp(tok[i], "moves") != 0) {
        proto_error(p, "unexpected '%.40s' in position (want 'moves')", tok[i]);
        return;
    }
    int first = i < n ? i + 1 : n;
    proto_stop_search(p);
    if (!engine_set_position(p->engine, fen, (const char *const *)tok + first, n - first,
                             MOVE_FMT_ALG, err, sizeof err))
        proto_error(p, "%s (position unchanged)", err);
}

static void uci_info(void *ctx, const EngineInfo *r)
{
    Proto *p = ctx;
    char line[PROTO_LINE_MAX], score[48], pv[PROTO_LINE_MAX / 2];
    int plies = engine_win_plies(r->score);
    if (plies > 0)
        snprintf(score, sizeof score, "mate %d", (plies + 1) / 2);
    else if (plies < 0)
        snprintf(score, sizeof score, "mate %d", plies / 2);
    else
        snprintf(score, sizeof score, "cp %d", r->score);
    proto_moves_text(r->pv, r->pvlen, engine_uci_format(p->engine), pv, sizeof pv);
    snprintf(line, sizeof line,
             "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d "
             "tbhits %llu time %lld pv %s",
             r->depth, r->seldepth, r->multipv, score,
             r->bound == BOUND_LOWER   ? " lowerbound"
             : r->bound == BOUND_UPPER ? " upperbound"
                                       : "",
             (unsigned long long)r->nodes, (unsigned long long)proto_nps(r), r->hashfull,
             (unsigned long long)r->tbhits, (long long)r->time_ms, pv);
    proto_write(p, "%s", line);
}

static void uci_best(void *ctx, const EngineResult *r)
{
    Proto *p = ctx;
    if (r->from_book && r->has_best) {
        char m[MOVE_TEXT_MAX];
        notation_move(&r->best, engine_uci_format(p->engine), m, sizeof m);
        proto_write(p, "info string book move %s", m);
    }
    proto_write_best(p, r, engine_uci_format(p->engine), "bestmove ", " ponder ",
                     "bestmove (none)");
}

static const char *const GO_KEYWORDS[] = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                          "binc",        "movestogo", "depth", "nodes", "movetime",
                                          "mate",        "infinite",  "perft"};

static bool is_go_keyword(const char *t)
{
    for (size_t i = 0; i < sizeof GO_KEYWORDS / sizeof GO_KEYWORDS[0]; i++)
        if (strcmp(t, GO_KEYWORDS[i]) == 0)
            return true;
    return false;
}

typedef struct PerftJob {
    const char *fen;
    int depth;
} PerftJob;

static void perft_job(void *ctx, FILE *out)
{
    const PerftJob *j = ctx;
    char err[ENGINE_ERR_MAX];
    bench_perft_divide(out, j->fen, j->depth, true, err, sizeof err);
}

static void uci_perft(Proto *p, char **tok, int n)
{
    int64_t d;
    char fen[FEN_MAX];
    if (n != 3 || !util_parse_int(tok[2], 1, BENCH_PERFT_DEPTH_MAX, &d)) {
        proto_error(p, "usage: go perft <depth 1..%d>", BENCH_PERFT_DEPTH_MAX);
        return;
    }
    notation_fen(engine_board(p->engine), fen, sizeof fen);
    PerftJob job = {fen, (int)d};
    proto_with_output(p, perft_job, &job);
}

// Reads the time argument of a clock keyword: any integer of ms (a negative clock means 0).
static bool clock_arg(Proto *p, const char *k, const char *arg, int64_t *out)
{
    if (util_parse_int(arg, -(INT64_C(1) << 40), INT64_C(1) << 40, out))
        return true;
    proto_error(p, "%s needs a time in ms", k);
    return false;
}

// Parses the go parameters into go; false (after an error reply) if any is bad.
static bool parse_go(Proto *p, char **tok, int n, EngineGo *go)
{
    int64_t v, clock[2] = {0, 0}, inc[2] = {0, 0}, movestogo = 0, movetime = 0;
    bool has_clock[2] = {false, false};
    for (int i = 1; i < n; i++) {
        const char *k = tok[i], *arg = i + 1 < n ? tok[i + 1] : NULL;
        if (strcmp(k, "infinite") == 0) {
            go->infinite = true;
        } else if (strcmp(k, "ponder") == 0) {
            go->ponder = true;
        } else if (strcmp(k, "searchmoves") == 0) {
            while (i + 1 < n && !is_go_keyword(tok[i + 1])) {
                char err[ENGINE_ERR_MAX];
                if (!engine_parse_move(p->engine, tok[++i], MOVE_FMT_ALG,
                                       &go->searchmoves[go->nsearchmoves], err, sizeof err)) {
                    proto_error(p, "searchmoves: %s", err);
                    return false;
                }
                go->nsearchmoves++;
            }
        } else if (strcmp(k, "wtime") == 0 || strcmp(k, "btime") == 0) {
            if (!clock_arg(p, k, arg, &clock[k[0] == 'b']))
                return false;
            has_clock[k[0] == 'b'] = true, i++;
        } else if (strcmp(k, "winc") == 0 || strcmp(k, "binc") == 0) {
            if (!clock_arg(p, k, arg, &inc[k[0] == 'b']))
                return false;
            i++;
        } else if (strcmp(k, "movestogo") == 0) {
            if (!util_parse_int(arg, 1, 10000, &movestogo))
                return proto_error(p, "movestogo must be 1..10000"), false;
            i++;
        } else if (strcmp(k, "depth") == 0) {
            if (!util_parse_int(arg, 1, MAX_PLY - 1, &v))
                return proto_error(p, "depth must be 1..%d", MAX_PLY - 1), false;
            go->depth = (Depth)v, i++;
        } else if (strcmp(k, "nodes") == 0) {
            if (!util_parse_int(arg, 1, INT64_C(1) << 50, &v))
                return proto_error(p, "nodes must be a positive count"), false;
            go->nodes = (uint64_t)v, i++;
        } else if (strcmp(k, "movetime") == 0) {
            if (!util_parse_int(arg, -(INT64_C(1) << 40), INT64_C(1) << 40, &movetime))
                return proto_error(p, "movetime must be a time in ms"), false;
            // No time (0 or less) is a zero clock: the move found at once (depth 1 at least).
            if (movetime < 1)
                movetime = 1;
            i++;
        } else if (strcmp(k, "mate") == 0) {
            if (!util_parse_int(arg, 1, MAX_PLY / 2, &v))
                return proto_error(p, "mate must be 1..%d moves", MAX_PLY / 2), false;
            go->mate = (int)v, i++;
        } else {
            proto_error(p, "unknown go parameter '%.40s'", k);
            return false;
        }
    }
    int us = engine_board(p->engine)->side;
    go->time = engine_uci_clock(has_clock[us], clock[us], inc[us], (int)movestogo, movetime);
    return true;
}

static void uci_go(Proto *p, char **tok, int n)
{
    if (n >= 2 && strcmp(tok[1], "perft") == 0) {
        proto_stop_search(p);
        uci_perft(p, tok, n);
        return;
    }
    EngineGo go;
    memset(&go, 0, sizeof go);
    if (!parse_go(p, tok, n, &go))
        return;
    proto_go(p, &go, uci_info, uci_best, "bestmove (none)");
}

static void show_board(Proto *p)
{
    const Engine *e = p->engine;
    char fen[FEN_MAX], diagram[NOTATION_DIAGRAM_MAX], moves[PROTO_LINE_MAX];
    notation_diagram(engine_board(e), diagram, sizeof diagram);
    for (char *line = strtok(diagram, "\n"); line; line = strtok(NULL, "\n"))
        proto_write(p, "%s", line);
    notation_fen(engine_board(e), fen, sizeof fen);
    proto_write(p, "Fen: %s", fen);
    proto_write(p, "Key: %016llx", (unsigned long long)engine_board(e)->key);
    MoveList list;
    engine_legal_moves(e, &list);
    proto_moves_text(list.moves, list.count, engine_uci_format(e), moves, sizeof moves);
    proto_write(p, "Legal moves (%d):%s%s", list.count, list.count ? " " : "", moves);
    GameResult r = engine_game_result(e);
    if (r != GAME_ONGOING)
        proto_write(p, "Game over: %s", engine_result_text(r));
}

static void eval_job(void *ctx, FILE *out) { engine_explain_eval(ctx, out); }

typedef struct BenchJob {
    int64_t depth, threads, hash;
} BenchJob;

static void bench_job(void *ctx, FILE *out)
{
    const BenchJob *j = ctx;
    bench_run(out, (int)j->depth, (int)j->threads, (int)j->hash, NULL);
}

static void run_bench(Proto *p, char **tok, int n)
{
    BenchJob j = {BENCH_DEPTH_DEFAULT, 1, BENCH_HASH_DEFAULT};
    if (n > 4 || (n > 1 && !util_parse_int(tok[1], 1, MAX_PLY - 1, &j.depth)) ||
        (n > 2 && !util_parse_int(tok[2], 1, ENGINE_THREADS_MAX, &j.threads)) ||
        (n > 3 && !util_parse_int(tok[3], ENGINE_HASH_MIN, ENGINE_HASH_MAX, &j.hash))) {
        proto_error(p, "usage: bench [depth] [threads] [hash_mb]");
        return;
    }
    proto_stop_search(p);
    proto_with_output(p, bench_job, &j);
}

static void show_help(Proto *p)
{
    static const char *const lines[] = {
        "Commands (UCI-style; start with 'hub' for the Hub dialect):",
        "  uci | isready | ucinewgame | quit",
        "  setoption name <option> [value <x>]   (the options are listed by 'uci')",
        "  position startpos|fen <FEN> [moves <m1> <m2> ...]   e.g. position startpos moves c3d4",
        "  go [depth d] [movetime ms] [nodes n] [wtime ms btime ms winc ms binc ms movestogo n]",
        "     [infinite] [ponder] [mate n] [searchmoves m ...]   then stop | ponderhit",
        "  go perft <d> | d (show the board) | eval | bench [depth] [threads] [hash_mb] | help",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        proto_write(p, "%s", lines[i]);
}

static bool uci_handle(Proto *p, char *line)
{
    char *tok[PROTO_TOKENS_MAX];
    int n = proto_tokenize(line, tok, PROTO_TOKENS_MAX);
    if (n == 0)
        return true;
    if (n < 0) {
        proto_error(p, "too many words in one line (at most %d)", PROTO_TOKENS_MAX);
        return true;
    }
    const char *c = tok[0];
    if (strcmp(c, "uci") == 0) {
        uci_hello(p);
    } else if (strcmp(c, "isready") == 0) {
        proto_write(p, "readyok");
    } else if (strcmp(c, "stop") == 0) {
        proto_stop_search(p);
    } else if (strcmp(c, "ponderhit") == 0) {
        if (p->searching)
            engine_ponderhit(p->engine);
    } else if (strcmp(c, "quit") == 0) {
        proto_stop_search(p);
        return false;
    } else if (strcmp(c, "setoption") == 0) {
        uci_setoption(p, tok, n);
    } else if (strcmp(c, "ucinewgame") == 0) {
        proto_stop_search(p);
        engine_new_game(p->engine);
    } else if (strcmp(c, "position") == 0) {
        uci_position(p, tok, n);
    } else if (strcmp(c, "go") == 0) {
        uci_go(p, tok, n);
    } else if (strcmp(c, "d") == 0) {
        show_board(p); // reads the game, which a running search does not change
    } else if (strcmp(c, "eval") == 0) {
        proto_with_output(p, eval_job, p->engine);
    } else if (strcmp(c, "bench") == 0) {
        run_bench(p, tok, n);
    } else if (strcmp(c, "help") == 0) {
        show_help(p);
    } else {
        proto_error(p, "unknown command '%.40s' (type 'help')", c);
    }
    return true;
}

static const ProtoDialect UCI = {"uci", uci_handle, "info string error: ", ""};

const ProtoDialect *uci_dialect(void) { return &UCI; }
