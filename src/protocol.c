// SPDX-License-Identifier: MIT
// Owns the front end: the bounded line reader, tokenising, output, and the UCI-style dialect.
// The Hub dialect lives in protocol_hub.c.
#include "protocol.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "eval.h"
#include "movegen.h"
#include "protocol_hub.h"
#include "tables.h"

void proto_init(Proto *p, Engine *e, FILE *in, FILE *out)
{
    memset(p, 0, sizeof *p);
    p->engine = e;
    p->in = in;
    p->out = out;
    pthread_mutex_init(&p->out_mu, NULL);
    p->multipv = 1;
    p->move_overhead_ms = MOVE_OVERHEAD_DEFAULT;
    p->move_format = MOVE_FMT_UCI;
    p->hub_format = MOVE_FMT_HUB;
    p->level = (HubLevel){.move_time_ms = -1, .time_ms = -1};
}

void proto_free(Proto *p) { pthread_mutex_destroy(&p->out_mu); }

static void write_va(Proto *p, const char *prefix, const char *fmt, va_list ap)
{
    pthread_mutex_lock(&p->out_mu);
    fputs(prefix, p->out);
    vfprintf(p->out, fmt, ap);
    fputc('\n', p->out);
    fflush(p->out);
    pthread_mutex_unlock(&p->out_mu);
}

void proto_write(Proto *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    write_va(p, "", fmt, ap);
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
    if (p->dialect == DIALECT_HUB)
        proto_write(p, "error message=\"%s\"", msg);
    else
        proto_write(p, "info string error: %s", msg);
}

void proto_go(Proto *p, const SearchLimits *limits, SearchInfoFn on_info, EngineBestFn on_best,
              const char *no_move_reply)
{
    proto_stop_search(p);
    if (movegen_count(&p->engine->board) == 0) {
        proto_error(p, "game over, no legal move");
        proto_write(p, "%s", no_move_reply);
        return;
    }
    p->searching = true;
    engine_go(p->engine, limits, on_info, on_best, p);
}

void proto_stop_search(Proto *p)
{
    if (p->searching) {
        engine_stop(p->engine);
        p->searching = false;
    }
    engine_wait(p->engine);
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

bool proto_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

// ---------------------------------------------------------------------------------------------
// UCI-style dialect.

static const char *const FORMAT_NAMES[] = {"uci", "algebraic", "numeric"};

static void uci_hello(Proto *p)
{
    proto_write(p, "id name %s %s", DAMKA_NAME, DAMKA_VERSION);
    proto_write(p, "id author %s", DAMKA_AUTHOR);
    proto_write(p, "option name Hash type spin default %d min %d max %d", ENGINE_HASH_DEFAULT,
                TT_MB_MIN, TT_MB_MAX);
    proto_write(p, "option name Threads type spin default 1 min 1 max %d", ENGINE_THREADS_MAX);
    proto_write(p, "option name MultiPV type spin default 1 min 1 max %d", MULTIPV_MAX);
    proto_write(p, "option name Ponder type check default false");
    proto_write(p, "option name Move Overhead type spin default %d min 0 max %d",
                MOVE_OVERHEAD_DEFAULT, MOVE_OVERHEAD_MAX);
    proto_write(p, "option name Clear Hash type button");
    proto_write(p, "option name UCI_Variant type combo default russian var russian");
    proto_write(p, "option name UCI_AnalyseMode type check default false");
    proto_write(p, "option name MoveFormat type combo default uci var uci var algebraic var numeric");
    proto_write(p, "uciok");
}

static bool parse_bool(const char *v, bool *out)
{
    if (v && strcmp(v, "true") == 0)
        *out = true;
    else if (v && strcmp(v, "false") == 0)
        *out = false;
    else
        return false;
    return true;
}

// `setoption name <id...> [value <x...>]`: the name may contain spaces.
static void uci_setoption(Proto *p, char **tok, int n)
{
    char name[128] = "", value[128] = "";
    int i = 1;
    if (n < 3 || strcmp(tok[1], "name") != 0) {
        proto_error(p, "setoption needs: setoption name <id> [value <x>]");
        return;
    }
    for (i = 2; i < n && strcmp(tok[i], "value") != 0; i++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", i > 2 ? " " : "", tok[i]);
    bool has_value = i < n;
    for (int k = i + 1; k < n; k++)
        snprintf(value + strlen(value), sizeof value - strlen(value), "%s%s", k > i + 1 ? " " : "",
                 tok[k]);
    const char *v = has_value ? value : NULL;
    int64_t num;
    bool flag;
    proto_stop_search(p);
    if (strcasecmp(name, "Hash") == 0) {
        if (!proto_parse_int(v, TT_MB_MIN, TT_MB_MAX, &num))
            proto_error(p, "Hash must be %d..%d MB", TT_MB_MIN, TT_MB_MAX);
        else if (!engine_set_hash(p->engine, (size_t)num))
            proto_error(p, "cannot allocate %lld MB of hash; keeping %zu MB", (long long)num,
                        p->engine->tt.megabytes);
    } else if (strcasecmp(name, "Threads") == 0) {
        if (!proto_parse_int(v, 1, ENGINE_THREADS_MAX, &num))
            proto_error(p, "Threads must be 1..%d", ENGINE_THREADS_MAX);
        else if (!engine_set_threads(p->engine, (int)num))
            proto_error(p, "cannot start %lld threads; keeping %d", (long long)num,
                        p->engine->threads);
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (!proto_parse_int(v, 1, MULTIPV_MAX, &num))
            proto_error(p, "MultiPV must be 1..%d", MULTIPV_MAX);
        else
            p->multipv = (int)num;
    } else if (strcasecmp(name, "Ponder") == 0) {
        if (!parse_bool(v, &flag))
            proto_error(p, "Ponder must be true or false");
        else
            p->ponder = flag;
    } else if (strcasecmp(name, "Move Overhead") == 0) {
        if (!proto_parse_int(v, 0, MOVE_OVERHEAD_MAX, &num))
            proto_error(p, "Move Overhead must be 0..%d ms", MOVE_OVERHEAD_MAX);
        else
            p->move_overhead_ms = num;
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        engine_clear_hash(p->engine);
    } else if (strcasecmp(name, "UCI_Variant") == 0) {
        if (!v || strcasecmp(v, "russian") != 0)
            proto_error(p, "UCI_Variant: only russian is played");
    } else if (strcasecmp(name, "UCI_AnalyseMode") == 0) {
        if (!parse_bool(v, &flag))
            proto_error(p, "UCI_AnalyseMode must be true or false");
        else
            p->analyse_mode = flag;
    } else if (strcasecmp(name, "MoveFormat") == 0) {
        int f = -1;
        for (int k = 0; k < 3; k++)
            if (v && strcasecmp(v, FORMAT_NAMES[k]) == 0)
                f = k;
        if (f < 0)
            proto_error(p, "MoveFormat must be uci, algebraic or numeric");
        else
            p->move_format = (MoveFormat)f;
    } else {
        proto_error(p, "unknown option '%s'", name);
    }
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

static void print_move(const Proto *p, const Move *m, char *buf, size_t len, bool hub)
{
    notation_move(m, hub ? p->hub_format : p->move_format, buf, len);
}

static void uci_info(void *ctx, const SearchReport *r)
{
    Proto *p = ctx;
    char line[PROTO_LINE_MAX], score[48];
    int mate = search_mate_moves(r->score);
    if (mate)
        snprintf(score, sizeof score, "mate %d", mate);
    else
        snprintf(score, sizeof score, "cp %d", r->score);
    uint64_t nps = r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : r->nodes * 1000;
    int len = snprintf(line, sizeof line,
                       "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu "
                       "hashfull %d time %lld pv",
                       r->depth, r->seldepth, r->multipv, score,
                       r->bound == BOUND_LOWER   ? " lowerbound"
                       : r->bound == BOUND_UPPER ? " upperbound"
                                                 : "",
                       (unsigned long long)r->nodes, (unsigned long long)nps, r->hashfull,
                       (long long)r->time_ms);
    for (int i = 0; i < r->pvlen && len > 0 && (size_t)len < sizeof line - MOVE_TEXT_MAX; i++) {
        char m[MOVE_TEXT_MAX];
        print_move(p, &r->pv[i], m, sizeof m, false);
        len += snprintf(line + len, sizeof line - (size_t)len, " %s", m);
    }
    proto_write(p, "%s", line);
}

static void uci_best(void *ctx, const SearchShared *sh)
{
    Proto *p = ctx;
    char best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    if (!sh->has_best) {
        proto_write(p, "bestmove (none)");
        return;
    }
    print_move(p, &sh->best, best, sizeof best, false);
    if (sh->has_ponder) {
        print_move(p, &sh->ponder, ponder, sizeof ponder, false);
        proto_write(p, "bestmove %s ponder %s", best, ponder);
    } else {
        proto_write(p, "bestmove %s", best);
    }
}

static const char *const GO_KEYWORDS[] = {"searchmoves", "ponder", "wtime", "btime", "winc",
                                          "binc", "movestogo", "depth", "nodes", "movetime",
                                          "mate", "infinite", "perft"};

static bool is_go_keyword(const char *t)
{
    for (size_t i = 0; i < sizeof GO_KEYWORDS / sizeof GO_KEYWORDS[0]; i++)
        if (strcmp(t, GO_KEYWORDS[i]) == 0)
            return true;
    return false;
}

static void uci_perft(Proto *p, char **tok, int n)
{
    int64_t d;
    char err[ENGINE_ERR_MAX], fen[FEN_MAX];
    if (n != 3 || !proto_parse_int(tok[2], 1, 20, &d)) {
        proto_error(p, "usage: go perft <depth 1..20>");
        return;
    }
    notation_fen(&p->engine->board, fen, sizeof fen);
    pthread_mutex_lock(&p->out_mu);
    bench_perft_divide(p->out, fen, (int)d, true, err, sizeof err);
    fflush(p->out);
    pthread_mutex_unlock(&p->out_mu);
}

// Parses the go parameters into limits; false (after an error reply) if any is bad.
static bool parse_go(Proto *p, char **tok, int n, SearchLimits *l)
{
    const Board *b = &p->engine->board;
    int64_t v, clock[2] = {-1, -1}, inc[2] = {0, 0}, movestogo = 0, movetime = -1;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i], *arg = i + 1 < n ? tok[i + 1] : NULL;
        if (strcmp(k, "infinite") == 0) {
            l->infinite = true;
        } else if (strcmp(k, "ponder") == 0) {
            l->ponder = true;
        } else if (strcmp(k, "searchmoves") == 0) {
            while (i + 1 < n && !is_go_keyword(tok[i + 1])) {
                char err[ENGINE_ERR_MAX];
                if (!notation_parse_move(b, tok[++i], MOVE_FMT_ALG,
                                         &l->searchmoves[l->nsearchmoves], err, sizeof err)) {
                    proto_error(p, "searchmoves: %s", err);
                    return false;
                }
                l->nsearchmoves++;
            }
        } else if (strcmp(k, "wtime") == 0 || strcmp(k, "btime") == 0) {
            if (!proto_parse_int(arg, 0, INT64_C(1) << 40, &v))
                return proto_error(p, "%s needs a time in ms >= 0", k), false;
            clock[k[0] == 'b'] = v, i++;
        } else if (strcmp(k, "winc") == 0 || strcmp(k, "binc") == 0) {
            if (!proto_parse_int(arg, 0, INT64_C(1) << 40, &v))
                return proto_error(p, "%s needs a time in ms >= 0", k), false;
            inc[k[0] == 'b'] = v, i++;
        } else if (strcmp(k, "movestogo") == 0) {
            if (!proto_parse_int(arg, 1, 10000, &movestogo))
                return proto_error(p, "movestogo must be 1..10000"), false;
            i++;
        } else if (strcmp(k, "depth") == 0) {
            if (!proto_parse_int(arg, 1, MAX_PLY - 1, &v))
                return proto_error(p, "depth must be 1..%d", MAX_PLY - 1), false;
            l->depth = (Depth)v, i++;
        } else if (strcmp(k, "nodes") == 0) {
            if (!proto_parse_int(arg, 1, INT64_C(1) << 50, &v))
                return proto_error(p, "nodes must be a positive count"), false;
            l->nodes = (uint64_t)v, i++;
        } else if (strcmp(k, "movetime") == 0) {
            if (!proto_parse_int(arg, 1, INT64_C(1) << 40, &movetime))
                return proto_error(p, "movetime must be a time in ms >= 1"), false;
            i++;
        } else if (strcmp(k, "mate") == 0) {
            if (!proto_parse_int(arg, 1, MAX_PLY / 2, &v))
                return proto_error(p, "mate must be 1..%d moves", MAX_PLY / 2), false;
            l->mate = (int)v, i++;
        } else {
            proto_error(p, "unknown go parameter '%.40s'", k);
            return false;
        }
    }
    int us = b->side;
    l->time = (TimeInput){clock[us], inc[us], (int)movestogo, movetime, p->move_overhead_ms};
    return true;
}

static void uci_go(Proto *p, char **tok, int n)
{
    if (n >= 2 && strcmp(tok[1], "perft") == 0) {
        proto_stop_search(p);
        uci_perft(p, tok, n);
        return;
    }
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.multipv = p->multipv;
    limits.analysis = p->analyse_mode;
    if (!parse_go(p, tok, n, &limits))
        return;
    proto_go(p, &limits, uci_info, uci_best, "bestmove (none)");
}

static void show_board(Proto *p)
{
    const Board *b = &p->engine->board;
    char fen[FEN_MAX], line[80];
    static const char PIECE[] = ".wbWB";
    for (int y = 7; y >= 0; y--) {
        int len = snprintf(line, sizeof line, " %d ", y + 1);
        for (int x = 0; x < 8; x++) {
            Square s = tables_square_at(x, y);
            line[len++] = s < 0 ? ' ' : PIECE[board_piece_at(b, s)];
            line[len++] = ' ';
        }
        line[len] = '\0';
        proto_write(p, "%s", line);
    }
    proto_write(p, "   a b c d e f g h");
    notation_fen(b, fen, sizeof fen);
    proto_write(p, "Fen: %s", fen);
    proto_write(p, "Key: %016llx", (unsigned long long)b->key);
    MoveList list;
    movegen_all(b, &list);
    char moves[PROTO_LINE_MAX] = "";
    size_t len = 0;
    for (int i = 0; i < list.count && len < sizeof moves - MOVE_TEXT_MAX; i++) {
        char m[MOVE_TEXT_MAX];
        print_move(p, &list.moves[i], m, sizeof m, false);
        len += (size_t)snprintf(moves + len, sizeof moves - len, " %s", m);
    }
    proto_write(p, "Legal moves (%d):%s", list.count, moves);
    GameResult r = engine_game_result(p->engine);
    if (r != GAME_ONGOING)
        proto_write(p, "Game over: %s", rules_result_text(r));
}

static void show_eval(Proto *p)
{
    pthread_mutex_lock(&p->out_mu);
    eval_explain(&p->engine->board, p->out);
    fflush(p->out);
    pthread_mutex_unlock(&p->out_mu);
}

static void run_bench(Proto *p, char **tok, int n)
{
    int64_t depth = BENCH_DEPTH_DEFAULT, threads = 1, hash = BENCH_HASH_DEFAULT;
    if (n > 4 || (n > 1 && !proto_parse_int(tok[1], 1, MAX_PLY - 1, &depth)) ||
        (n > 2 && !proto_parse_int(tok[2], 1, ENGINE_THREADS_MAX, &threads)) ||
        (n > 3 && !proto_parse_int(tok[3], TT_MB_MIN, TT_MB_MAX, &hash))) {
        proto_error(p, "usage: bench [depth] [threads] [hash_mb]");
        return;
    }
    proto_stop_search(p);
    pthread_mutex_lock(&p->out_mu);
    bench_run(p->out, (int)depth, (int)threads, (int)hash, NULL);
    fflush(p->out);
    pthread_mutex_unlock(&p->out_mu);
}

static void show_help(Proto *p)
{
    static const char *const lines[] = {
        "Commands (UCI-style; start with 'hub' for the Hub dialect):",
        "  uci | isready | ucinewgame | quit",
        "  setoption name <Hash|Threads|MultiPV|Ponder|Move Overhead|Clear Hash|",
        "                  UCI_Variant|UCI_AnalyseMode|MoveFormat> [value <x>]",
        "  position startpos|fen <FEN> [moves <m1> <m2> ...]   e.g. position startpos moves c3d4",
        "  go [depth d] [movetime ms] [nodes n] [wtime ms btime ms winc ms binc ms movestogo n]",
        "     [infinite] [ponder] [mate n] [searchmoves m ...]   then stop | ponderhit",
        "  go perft <d> | d (show the board) | eval | bench [depth] [threads] [hash_mb] | help",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        proto_write(p, "%s", lines[i]);
}

static bool uci_handle(Proto *p, char **tok, int n)
{
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
        show_eval(p);
    } else if (strcmp(c, "bench") == 0) {
        run_bench(p, tok, n);
    } else if (strcmp(c, "help") == 0) {
        show_help(p);
    } else {
        proto_error(p, "unknown command '%.40s' (type 'help')", c);
    }
    return true;
}

// True when the line holds only printable characters, spaces and tabs.
static bool is_text(const char *line)
{
    for (const unsigned char *c = (const unsigned char *)line; *c; c++)
        if (*c != '\t' && (*c < 32 || *c > 126))
            return false;
    return true;
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
    char *tok[PROTO_TOKENS_MAX];
    char copy[PROTO_LINE_MAX + 2];
    snprintf(copy, sizeof copy, "%s", line);
    int n = proto_tokenize(line, tok, PROTO_TOKENS_MAX);
    if (n == 0)
        return true;
    if (n < 0) {
        proto_error(p, "too many words in one line (at most %d)", PROTO_TOKENS_MAX);
        return true;
    }
    if (p->dialect == DIALECT_UNKNOWN)
        p->dialect = strcmp(tok[0], "hub") == 0 ? DIALECT_HUB : DIALECT_UCI;
    if (p->dialect == DIALECT_HUB)
        return hub_handle_line(p, copy);
    return uci_handle(p, tok, n);
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

int proto_main(int argc, char **argv)
{
    Dialect dialect = DIALECT_UNKNOWN;
    if (argc >= 1) {
        if (strcmp(argv[0], "--version") == 0) {
            printf("%s %s\n", DAMKA_NAME, DAMKA_VERSION);
            return 0;
        }
        if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
            printf("usage: damka [uci | hub | perft <depth> [FEN] | bench [depth] [threads] "
                   "[hash_mb] | --version | --help]\n"
                   "With no argument (or uci) it reads UCI-style commands on stdin; "
                   "'hub' selects Scan's Hub protocol. Type 'help' at the prompt.\n");
            return 0;
        }
        if (strcmp(argv[0], "uci") == 0)
            dialect = DIALECT_UCI;
        else if (strcmp(argv[0], "hub") == 0)
            dialect = DIALECT_HUB;
        else {
            printf("error: unknown argument '%s' (try --help)\n", argv[0]);
            return 2;
        }
    }
    static Engine engine;
    if (!engine_init(&engine)) {
        printf("error: cannot allocate the engine\n");
        return 1;
    }
    Proto p;
    proto_init(&p, &engine, stdin, stdout);
    p.dialect = dialect;
    p.interactive = isatty(fileno(stdin));
    if (p.interactive && dialect != DIALECT_HUB)
        proto_write(&p, "%s %s, a Russian draughts engine. Type 'help' for the commands.",
                    DAMKA_NAME, DAMKA_VERSION);
    proto_loop(&p);
    engine_destroy(&engine);
    proto_free(&p);
    return 0;
}
