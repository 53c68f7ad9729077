// SPDX-License-Identifier: MIT
// damka-match: command line, game scheduling over -concurrency threads, and match output.
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "engine.h"
#include "match.h"

enum { FAULT_ILLEGAL, FAULT_CRASH, FAULT_HANG, FAULT_MALFORMED, FAULT_START, FAULT_KINDS };
static const char *const FAULT_NAMES[FAULT_KINDS] = {"illegal move", "crash", "hang",
                                                     "malformed reply", "did not start"};

typedef struct MatchConfig {
    EngineSpec engines[2];
    TimeControl tc[2];
    int games;
    int concurrency;
    Opening *openings;
    int nopenings;
    bool random_order;
    int opening_start;
    unsigned seed;
    char pdnout[256];
    bool sprt;
    double elo0, elo1, alpha, beta;
    Adjudication adj;
    char event[128];
    char site[128];
    int64_t hang_ms;
    int64_t start_timeout_ms;
    bool resume; // the games already in pdnout are not played again
} MatchConfig;

typedef struct MatchState {
    const MatchConfig *cfg;
    pthread_mutex_t mu;
    int next_game;
    int finished;
    bool stop;
    MatchScore score;
    int time_losses[2];
    int64_t early_ms[2], all_ms[2]; // time used on each engine's first EARLY_MOVES moves, and all
    int64_t early_moves[2], all_moves[2];
    int faults[2][FAULT_KINDS];
    int by_rule_end; // games ended by the rules of rules.md (no move or a 7.2 draw)
    FILE *pdn;
    char date[16];
    int *order; // opening index of each opening pair
    bool *done; // games already played (-resume), or handed out
    int resumed;
    int ranks;       // MPI ranks playing (1: this process alone)
    int *rank_games; // games each rank played
} MatchState;

// What one game cost each engine, added to the match's figures when it is recorded.
typedef struct GameCost {
    int time_loss[2];
    int64_t early_ms[2], all_ms[2], early_moves[2], all_moves[2];
} GameCost;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: damka-match -engine cmd=CMD [name=N] [proto=uci|hub] [dir=D] [option.X=V]...\n"
            "                   -engine cmd=CMD ... [-each KEY=VALUE ...]\n"
            "  engine keys: tc=MOVES/SECONDS+INC | tc=SECONDS+INC | st=SECONDS | depth=N |\n"
            "               nodes=N | timemargin=MS | restart=on|off\n"
            "  -games N  -concurrency N  -openings file=F [order=sequential|random] [start=N]\n"
            "    (a bare name such as 4ply-balanced.txt is one of Damka's shipped sets)\n"
            "  -pdnout F  -sprt elo0=E0 elo1=E1 alpha=A beta=B  -maxmoves N\n"
            "  -draw movenumber=N movecount=N score=CP  -resign movecount=N score=CP\n"
            "  -event NAME  -site NAME  -seed N  -hangtime SECONDS  -starttime SECONDS\n"
            "  -resume: the games already in the -pdnout file count and are not played again\n"
            "  SIGTERM or SIGINT: no new game starts, the games being played finish, and the\n"
            "  summary is printed; a second signal ends the runner at once.\n");
}

// Set by SIGTERM or SIGINT: the workers start no new game. An atomic rather than a
// sig_atomic_t: the handler runs on one thread and the workers read it on others.
static atomic_int interrupted;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a lock-free atomic is safe in a signal handler");

static void on_signal(int sig)
{
    if (atomic_exchange(&interrupted, 1))
        _exit(128 + sig); // the second signal: at once (the engines see their pipes close)
}

// SIGTERM always; SIGINT unless it was ignored (a job started in the background keeps its
// inherited SIG_IGN, as the shell intended).
static void catch_stop_signals(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART; // the engines' pipes are read and written on
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
}

static bool key_is(const char *kv, const char *key, const char **value)
{
    size_t n = strlen(key);
    if (strncmp(kv, key, n) != 0 || kv[n] != '=')
        return false;
    *value = kv + n + 1;
    return true;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

// Applies one key=value to an engine and its time control. False if not understood.
static bool engine_key(EngineSpec *e, TimeControl *tc, const char *kv)
{
    const char *v;
    long n;
    double d;
    if (key_is(kv, "cmd", &v))
        snprintf(e->cmd, sizeof e->cmd, "%s", v);
    else if (key_is(kv, "name", &v))
        snprintf(e->name, sizeof e->name, "%s", v);
    else if (key_is(kv, "dir", &v))
        snprintf(e->dir, sizeof e->dir, "%s", v);
    else if (key_is(kv, "proto", &v)) {
        if (strcmp(v, "uci") != 0 && strcmp(v, "hub") != 0)
            return false;
        e->proto = strcmp(v, "hub") == 0 ? PROTO_HUB : PROTO_UCI;
    } else if (key_is(kv, "restart", &v)) {
        if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
            return false;
        e->restart = strcmp(v, "on") == 0;
    } else if (key_is(kv, "tc", &v)) {
        int64_t margin = tc->margin_ms;
        if (!tc_parse_clock(v, tc))
            return false;
        tc->margin_ms = margin;
    } else if (key_is(kv, "st", &v)) {
        if (!parse_double(v, &d) || d <= 0)
            return false;
        tc->kind = TC_MOVETIME;
        tc->movetime_ms = (int64_t)(d * 1000 + 0.5);
    } else if (key_is(kv, "depth", &v)) {
        if (!parse_long(v, 1, 127, &n))
            return false;
        tc->kind = TC_DEPTH;
        tc->depth = (int)n;
    } else if (key_is(kv, "nodes", &v)) {
        if (!parse_long(v, 1, 1L << 50, &n))
            return false;
        tc->kind = TC_NODES;
        tc->nodes = n;
    } else if (key_is(kv, "timemargin", &v)) {
        if (!parse_long(v, 0, 1000000, &n))
            return false;
        tc->margin_ms = n;
    } else if (strncmp(kv, "option.", 7) == 0 && strchr(kv, '=')) {
        if (e->noptions == MATCH_OPTIONS_MAX)
            return false;
        const char *eq = strchr(kv, '=');
        snprintf(e->opt_name[e->noptions], sizeof e->opt_name[0], "%.*s", (int)(eq - kv - 7),
                 kv + 7);
        snprintf(e->opt_value[e->noptions], sizeof e->opt_value[0], "%s", eq + 1);
        e->noptions++;
    } else {
        return false;
    }
    return true;
}

// Parses the group of key=value words after an option such as -draw; returns words used.
static int group_len(int argc, char **argv, int i)
{
    int n = 0;
    while (i + n < argc && argv[i + n][0] != '-')
        n++;
    return n;
}

// Opens an openings file: the path as given, or for a bare name (4ply-balanced.txt) the set
// of that name shipped with Damka (the source tree's book/openings/, or the installed
// share/damka/openings/).
static FILE *open_openings(const char *path)
{
    FILE *f = fopen(path, "r");
    char found[4096], name[1024];
    if (f || strchr(path, '/'))
        return f;
    snprintf(name, sizeof name, "openings/%s", path);
    return engine_find_data(name, found, sizeof found) ? fopen(found, "r") : NULL;
}

static bool load_openings(MatchConfig *c, const char *path)
{
    FILE *f = open_openings(path);
    if (!f) {
        fprintf(stderr, "error: cannot open openings file %s\n", path);
        return false;
    }
    char err[200];
    c->nopenings = openings_read(f, &c->openings, err, sizeof err);
    fclose(f);
    if (c->nopenings <= 0) {
        fprintf(stderr, "error: openings file %s: %s\n", path,
                c->nopenings < 0 ? err : "no opening");
        return false;
    }
    return true;
}

static bool parse_group(MatchConfig *c, const char *opt, char **w, int n)
{
    const char *v;
    long x;
    double d;
    for (int k = 0; k < n; k++) {
        bool ok = false;
        if (strcmp(opt, "-draw") == 0) {
            if (key_is(w[k], "movenumber", &v))
                ok = parse_long(v, 0, 10000, &x) && (c->adj.draw_movenumber = (int)x, true);
            else if (key_is(w[k], "movecount", &v))
                ok = parse_long(v, 1, 10000, &x) && (c->adj.draw_movecount = (int)x, true);
            else if (key_is(w[k], "score", &v))
                ok = parse_long(v, 0, 100000, &x) && (c->adj.draw_score = (int)x, true);
        } else if (strcmp(opt, "-resign") == 0) {
            if (key_is(w[k], "movecount", &v))
                ok = parse_long(v, 1, 10000, &x) && (c->adj.resign_movecount = (int)x, true);
            else if (key_is(w[k], "score", &v))
                ok = parse_long(v, 1, 100000, &x) && (c->adj.resign_score = (int)x, true);
        } else if (strcmp(opt, "-sprt") == 0) {
            c->sprt = true;
            if (key_is(w[k], "elo0", &v))
                ok = parse_double(v, &c->elo0);
            else if (key_is(w[k], "elo1", &v))
                ok = parse_double(v, &c->elo1);
            else if (key_is(w[k], "alpha", &v))
                ok = parse_double(v, &d) && d > 0 && d < 1 && (c->alpha = d, true);
            else if (key_is(w[k], "beta", &v))
                ok = parse_double(v, &d) && d > 0 && d < 1 && (c->beta = d, true);
        } else if (strcmp(opt, "-openings") == 0) {
            if (key_is(w[k], "file", &v))
                ok = load_openings(c, v);
            else if (key_is(w[k], "order", &v))
                ok = (strcmp(v, "random") == 0 || strcmp(v, "sequential") == 0) &&
                     (c->random_order = strcmp(v, "random") == 0, true);
            else if (key_is(w[k], "start", &v))
                ok = parse_long(v, 1, 1000000, &x) && (c->opening_start = (int)x - 1, true);
            else if (key_is(w[k], "format", &v) || key_is(w[k], "policy", &v))
                ok = true; // cutechess words that need no action here
        }
        if (!ok) {
            fprintf(stderr, "error: %s: cannot use '%s'\n", opt, w[k]);
            return false;
        }
    }
    return true;
}

static bool parse_args(int argc, char **argv, MatchConfig *c)
{
    int nengines = 0;
    long x;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int n = group_len(argc, argv, i + 1);
        if (strcmp(a, "-engine") == 0 || strcmp(a, "-each") == 0) {
            if (strcmp(a, "-engine") == 0 && nengines == 2) {
                fprintf(stderr, "error: exactly two engines play a match\n");
                return false;
            }
            for (int k = 0; k < n; k++) {
                for (int e = 0; e < 2; e++) {
                    if (a[1] == 'e' && a[2] == 'n' && e != nengines)
                        continue;
                    if (!engine_key(&c->engines[e], &c->tc[e], argv[i + 1 + k])) {
                        fprintf(stderr, "error: %s: cannot use '%s'\n", a, argv[i + 1 + k]);
                        return false;
                    }
                }
            }
            if (strcmp(a, "-engine") == 0)
                nengines++;
        } else if (strcmp(a, "-games") == 0 || strcmp(a, "-concurrency") == 0 ||
                   strcmp(a, "-maxmoves") == 0 || strcmp(a, "-seed") == 0 ||
                   strcmp(a, "-hangtime") == 0 || strcmp(a, "-starttime") == 0) {
            if (n != 1 || !parse_long(argv[i + 1], 0, 100000000, &x)) {
                fprintf(stderr, "error: %s needs a number\n", a);
                return false;
            }
            if (a[1] == 'g')
                c->games = (int)x;
            else if (a[1] == 'c')
                c->concurrency = x < 1 ? 1 : x > 64 ? 64 : (int)x;
            else if (a[1] == 'm')
                c->adj.maxmoves = (int)x;
            else if (strcmp(a, "-seed") == 0)
                c->seed = (unsigned)x;
            else if (a[1] == 's')
                c->start_timeout_ms = x * 1000;
            else
                c->hang_ms = x * 1000;
        } else if (strcmp(a, "-pdnout") == 0 || strcmp(a, "-pgnout") == 0 ||
                   strcmp(a, "-event") == 0 || strcmp(a, "-site") == 0) {
            if (n < 1) {
                fprintf(stderr, "error: %s needs a value\n", a);
                return false;
            }
            char *dst = a[1] == 'p' ? c->pdnout : a[1] == 'e' ? c->event : c->site;
            snprintf(dst, a[1] == 'p' ? sizeof c->pdnout : sizeof c->event, "%s", argv[i + 1]);
        } else if (strcmp(a, "-draw") == 0 || strcmp(a, "-resign") == 0 ||
                   strcmp(a, "-sprt") == 0 || strcmp(a, "-openings") == 0) {
            if (!parse_group(c, a, argv + i + 1, n))
                return false;
        } else if (strcmp(a, "-repeat") == 0 || strcmp(a, "-recover") == 0) {
            n = 0; // always on: each opening is played twice, and faulty engines are restarted
        } else if (strcmp(a, "-resume") == 0) {
            c->resume = true;
            n = 0;
        } else {
            fprintf(stderr, "error: unknown option '%s'\n", a);
            return false;
        }
        i += n;
    }
    if (nengines != 2 || !c->engines[0].cmd[0] || !c->engines[1].cmd[0]) {
        fprintf(stderr, "error: give two engines with -engine cmd=...\n");
        return false;
    }
    for (int e = 0; e < 2; e++) {
        EngineSpec *en = &c->engines[e];
        if (!en->name[0]) { // the command names the engine (cut to the name's size)
            size_t n = strnlen(en->cmd, sizeof en->name - 1);
            memcpy(en->name, en->cmd, n);
            en->name[n] = '\0';
        }
        if (c->tc[e].kind == TC_NONE) {
            fprintf(stderr, "error: no time control for %s (tc=, st=, depth= or nodes=)\n",
                    c->engines[e].name);
            return false;
        }
    }
    return true;
}

enum { EARLY_MOVES = 10 }; // the moves a book plays: their time is reported apart

static int opening_of(const MatchState *s, int game)
{
    int pair = game / 2;
    return s->order[pair % s->cfg->nopenings];
}

// Asks for moves until the game ends. white is the index (0 or 1) of the engine with White.
static void play_moves(MatchState *s, Player players[2], int white, Game *g, int fault[2],
                       GameCost *cost)
{
    const MatchConfig *c = s->cfg;
    Clock clocks[2];
    clock_start(&clocks[SIDE_WHITE], &c->tc[white]);
    clock_start(&clocks[SIDE_BLACK], &c->tc[white ^ 1]);
    int made[2] = {0, 0}; // moves each engine has played in this game
    while (g->outcome == OUT_NONE) {
        Side side = g->board.side;
        int e = side == SIDE_WHITE ? white : white ^ 1;
        const TimeControl *tc = &c->tc[e];
        int64_t deadline = c->hang_ms;
        if (tc->kind == TC_CLOCK)
            deadline = clocks[side].left_ms + tc->margin_ms + 1;
        else if (tc->kind == TC_MOVETIME)
            deadline = tc->movetime_ms + tc->margin_ms + 1;
        Move m;
        bool has_score;
        int score;
        int64_t used;
        Clock view[2] = {clocks[0], clocks[1]};
        ReplyStatus r =
            player_go(&players[e], g, tc, view, deadline, &m, &has_score, &score, &used);
        char reason[256];
        const char *who = side == SIDE_WHITE ? "White" : "Black";
        if (r == REPLY_TIMEOUT && tc->kind != TC_CLOCK && tc->kind != TC_MOVETIME) {
            fault[e] = FAULT_HANG;
        } else if (r == REPLY_TIMEOUT ||
                   (r == REPLY_OK && !clock_charge(&clocks[side], tc, used))) {
            snprintf(reason, sizeof reason, "%s loses on time", who);
            game_end(g, side == SIDE_WHITE ? OUT_BLACK_WINS : OUT_WHITE_WINS, reason);
            cost->time_loss[e]++;
            if (r == REPLY_TIMEOUT)
                player_stop(&players[e]); // it may still be thinking: start afresh
            return;
        } else if (r == REPLY_CRASH) {
            fault[e] = FAULT_CRASH;
        } else if (r == REPLY_BAD) {
            fault[e] = strstr(players[e].error, "illegal") ? FAULT_ILLEGAL : FAULT_MALFORMED;
        }
        if (fault[e] >= 0) {
            snprintf(reason, sizeof reason, "%s forfeits: %s", who, players[e].error);
            game_end(g, side == SIDE_WHITE ? OUT_BLACK_WINS : OUT_WHITE_WINS, reason);
            player_stop(&players[e]);
            return;
        }
        cost->all_ms[e] += used, cost->all_moves[e]++;
        if (made[e]++ < EARLY_MOVES)
            cost->early_ms[e] += used, cost->early_moves[e]++;
        game_play(g, &m, has_score, score, &c->adj);
    }
}

static void play_game(MatchState *s, Player players[2], int index, Game *g, int fault[2],
                      GameCost *cost)
{
    const MatchConfig *c = s->cfg;
    memset(cost, 0, sizeof *cost);
    int white = index % 2; // engine 0 has White in even games: each opening twice, colours swapped
    const Opening *o = &c->openings[opening_of(s, index)];
    game_start(g, &o->start);
    fault[0] = fault[1] = -1;
    for (int i = 0; i < o->nmoves && g->outcome == OUT_NONE; i++)
        game_play(g, &o->moves[i], false, 0, &c->adj);
    g->opening_plies = g->nplies;
    for (int e = 0; e < 2; e++) {
        if (player_alive(&players[e]) && c->engines[e].restart)
            player_stop(&players[e]);
        bool ready = player_alive(&players[e])
                         ? player_new_game(&players[e], c->start_timeout_ms)
                         : player_start(&players[e], &c->engines[e], c->start_timeout_ms);
        if (!ready && player_alive(&players[e])) {
            player_stop(&players[e]); // a reused engine that no longer answers: start afresh
            ready = player_start(&players[e], &c->engines[e], c->start_timeout_ms);
        }
        if (!ready) {
            fault[e] = FAULT_START;
            bool white_failed = (e == white);
            char reason[256];
            snprintf(reason, sizeof reason, "%s forfeits: engine did not start (%s)",
                     white_failed ? "White" : "Black", players[e].error);
            game_end(g, white_failed ? OUT_BLACK_WINS : OUT_WHITE_WINS, reason);
            return;
        }
    }
    if (g->outcome == OUT_NONE)
        play_moves(s, players, white, g, fault, cost);
}

static const char *result_text(GameOutcome o)
{
    return o == OUT_WHITE_WINS ? "1-0" : o == OUT_BLACK_WINS ? "0-1" : "1/2-1/2";
}

static void print_elo_line(const MatchState *s)
{
    double elo, err;
    const MatchScore *m = &s->score;
    int n = m->wins + m->losses + m->draws;
    stats_elo_error(m, &elo, &err);
    printf("Elo difference: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%\n", elo, err,
           stats_los(m), n ? 100.0 * m->draws / n : 0.0);
}

static void record(MatchState *s, int index, const Game *g, const int fault[2],
                   const GameCost *cost)
{
    const MatchConfig *c = s->cfg;
    int white = index % 2;
    const char *wn = c->engines[white].name, *bn = c->engines[white ^ 1].name;
    pthread_mutex_lock(&s->mu);
    for (int e = 0; e < 2; e++) {
        s->time_losses[e] += cost->time_loss[e];
        s->early_ms[e] += cost->early_ms[e], s->early_moves[e] += cost->early_moves[e];
        s->all_ms[e] += cost->all_ms[e], s->all_moves[e] += cost->all_moves[e];
    }
    for (int e = 0; e < 2; e++)
        if (fault[e] >= 0)
            s->faults[e][fault[e]]++;
    if (g->outcome == OUT_DRAW)
        s->score.draws++;
    else if ((g->outcome == OUT_WHITE_WINS) == (white == 0))
        s->score.wins++;
    else
        s->score.losses++;
    if (strstr(g->reason, "no legal move") || strstr(g->reason, "(7.2."))
        s->by_rule_end++;
    s->finished++;
    printf("Finished game %d (%s vs %s): %s {%s}\n", index + 1, wn, bn, result_text(g->outcome),
           g->reason);
    const MatchScore *m = &s->score;
    int n = m->wins + m->losses + m->draws;
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", c->engines[0].name, c->engines[1].name,
           m->wins, m->losses, m->draws, (m->wins + 0.5 * m->draws) / n, n);
    double elo, err;
    stats_elo_error(m, &elo, &err);
    printf("Progress: %d/%d games, W-L-D %d-%d-%d, score %.3f, Elo %.1f +/- %.1f", s->finished,
           c->games, m->wins, m->losses, m->draws, (m->wins + 0.5 * m->draws) / n, elo, err);
    double llr = c->sprt ? stats_sprt_llr(m, c->elo0, c->elo1) : 0;
    if (c->sprt)
        printf(", LLR %.2f", llr);
    printf("\n");
    if (s->pdn) {
        char tcbuf[64];
        tc_format(&c->tc[white], tcbuf, sizeof tcbuf);
        PdnTags tags = {c->event,  c->site, s->date, wn,   bn,   tcbuf,
                        index + 1, NULL,    NULL,    NULL, NULL, 0};
        pdn_write(s->pdn, &tags, g);
        fflush(s->pdn);
    }
    if (c->sprt) {
        double lo, hi;
        stats_sprt_bounds(c->alpha, c->beta, &lo, &hi);
        if ((llr >= hi || llr <= lo) && !s->stop) {
            printf("SPRT: llr %.2f, lbound %.2f, ubound %.2f - %s was accepted\n", llr, lo, hi,
                   llr >= hi ? "H1" : "H0");
            s->stop = true;
        }
    }
    fflush(stdout);
    pthread_mutex_unlock(&s->mu);
}

// The next game to play (-1: none: all handed out, an SPRT decided, or a signal came).
static int next_game(MatchState *s)
{
    pthread_mutex_lock(&s->mu);
    while (s->next_game < s->cfg->games && s->done[s->next_game])
        s->next_game++;
    int index =
        s->stop || atomic_load(&interrupted) || s->next_game >= s->cfg->games ? -1 : s->next_game++;
    if (index >= 0)
        s->done[index] = true;
    pthread_mutex_unlock(&s->mu);
    return index;
}

// -resume: the games of the PDN file already played count as played (their results in the
// score; their faults and times are not in the file). False after an error line.
static bool resume_from_pdn(MatchState *s)
{
    const MatchConfig *c = s->cfg;
    if (access(c->pdnout, F_OK) != 0)
        return true; // nothing played yet
    char err[300];
    char *text = pdn_read_text_file(c->pdnout, err, sizeof err);
    PdnGame *pg = text ? malloc(sizeof *pg) : NULL;
    if (!text || !pg) {
        fprintf(stderr, "error: -resume: %s\n", text ? "out of memory" : err);
        free(text);
        return false;
    }
    size_t pos = 0;
    int r;
    bool ok = true;
    while (ok && (r = pdn_read(text, &pos, pg, err, sizeof err)) != 0) {
        long round;
        if (r < 0 || !parse_long(pg->round, 1, c->games, &round)) {
            fprintf(stderr, "error: -resume: %s: %s\n", c->pdnout,
                    r < 0 ? err : "a game whose Round is not a game of this match");
            ok = false;
            break;
        }
        int index = (int)round - 1, white = index % 2;
        const char *res = pdn_result_standard(pg->result);
        if (strcmp(pg->white, c->engines[white].name) != 0 ||
            strcmp(pg->black, c->engines[white ^ 1].name) != 0 || strcmp(res, "*") == 0) {
            fprintf(stderr,
                    "error: -resume: %s: game %d is not one of this match (players %s "
                    "and %s, result %s)\n",
                    c->pdnout, index + 1, pg->white, pg->black, pg->result);
            ok = false;
            break;
        }
        if (s->done[index])
            continue; // written twice: counted once
        s->done[index] = true;
        s->resumed++, s->finished++;
        bool white_won = strcmp(res, "1-0") == 0, black_won = strcmp(res, "0-1") == 0;
        if (!white_won && !black_won)
            s->score.draws++;
        else if (white_won == (white == 0))
            s->score.wins++;
        else
            s->score.losses++;
        const char *reason = pdn_note(&pg->notes, pg->nmoves);
        if (reason && (strstr(reason, "no legal move") || strstr(reason, "(7.2.")))
            s->by_rule_end++;
    }
    free(text), free(pg);
    if (ok)
        printf("Resumed from %s: %d games already played, %d to play\n", c->pdnout, s->resumed,
               c->games - s->resumed);
    return ok;
}

static void *worker(void *arg)
{
    MatchState *s = arg;
    Player *players = calloc(2, sizeof(Player));
    Game *g = malloc(sizeof *g);
    if (!players || !g) {
        free(players);
        free(g);
        return NULL;
    }
    for (;;) {
        int index = next_game(s);
        if (index < 0)
            break;
        int fault[2];
        GameCost cost;
        play_game(s, players, index, g, fault, &cost);
        pthread_mutex_lock(&s->mu);
        s->rank_games[0]++;
        pthread_mutex_unlock(&s->mu);
        record(s, index, g, fault, &cost);
    }
    for (int e = 0; e < 2; e++)
        player_stop(&players[e]);
    free(players);
    free(g);
    return NULL;
}

// A game played on another rank, as it travels to rank 0 (the ranks run the same binary).
typedef struct ResultMsg {
    int rank;
    int index;
    int fault[2];
    GameCost cost;
    Game game;
} ResultMsg;

// The game threads of a rank other than 0: games from rank 0, results back to it.
static void *remote_worker(void *arg)
{
    MatchState *s = arg;
    Player *players = calloc(2, sizeof(Player));
    ResultMsg *m = malloc(sizeof *m);
    while (players && m && !atomic_load(&interrupted)) {
        int index = cluster_ask();
        if (index < 0 || index >= s->cfg->games)
            break;
        memset(m, 0, sizeof *m);
        m->rank = cluster_rank();
        m->index = index;
        play_game(s, players, index, &m->game, m->fault, &m->cost);
        cluster_send_result(m, sizeof *m);
    }
    cluster_send_done();
    for (int e = 0; players && e < 2; e++)
        player_stop(&players[e]);
    free(players);
    free(m);
    return NULL;
}

static int serve_ask(void *ctx) { return next_game(ctx); }

static void serve_result(void *ctx, const void *msg, size_t bytes)
{
    MatchState *s = ctx;
    const ResultMsg *m = msg;
    if (bytes != sizeof *m || m->index < 0 || m->index >= s->cfg->games || m->rank < 1 ||
        m->rank >= s->ranks) {
        fprintf(stderr, "error: a rank sent a message that is not a game of this match\n");
        return;
    }
    pthread_mutex_lock(&s->mu);
    s->rank_games[m->rank]++;
    pthread_mutex_unlock(&s->mu);
    record(s, m->index, &m->game, m->fault, &m->cost);
}

typedef struct Serving {
    MatchState *s;
    int threads;
} Serving;

static void *serve(void *arg)
{
    Serving *v = arg;
    cluster_serve(v->threads, serve_ask, serve_result, v->s);
    return NULL;
}

static void summary(const MatchState *s)
{
    const MatchConfig *c = s->cfg;
    for (int e = 0; e < 2; e++) {
        int total = 0;
        char detail[256] = "";
        size_t len = 0;
        for (int k = 0; k < FAULT_KINDS; k++) {
            total += s->faults[e][k];
            if (s->faults[e][k])
                len += (size_t)snprintf(detail + len, sizeof detail - len, " %s %d", FAULT_NAMES[k],
                                        s->faults[e][k]);
        }
        printf("%s: time losses %d, faults %d%s%s\n", c->engines[e].name, s->time_losses[e], total,
               total ? ":" : "", detail);
    }
    for (int e = 0; e < 2; e++)
        if (s->all_moves[e])
            printf("%s: %.3f s a move on its first %d moves of a game, %.3f s on all %" PRId64 "\n",
                   c->engines[e].name,
                   s->early_moves[e] ? s->early_ms[e] / 1000.0 / (double)s->early_moves[e] : 0.0,
                   EARLY_MOVES, s->all_ms[e] / 1000.0 / (double)s->all_moves[e], s->all_moves[e]);
    printf("Games ended by the rules (no legal move or a 7.2 draw): %d of %d\n", s->by_rule_end,
           s->finished);
    if (s->ranks > 1) {
        printf("Ranks: %d; games played by each:", s->ranks);
        for (int r = 0; r < s->ranks; r++)
            printf(" %d", s->rank_games[r]);
        printf("\n");
    }
    if (c->sprt) {
        double lo, hi, llr = stats_sprt_llr(&s->score, c->elo0, c->elo1);
        stats_sprt_bounds(c->alpha, c->beta, &lo, &hi);
        printf("SPRT: llr %.2f, lbound %.2f, ubound %.2f (elo0 %.1f, elo1 %.1f)%s\n", llr, lo, hi,
               c->elo0, c->elo1,
               llr >= hi   ? " - H1 accepted"
               : llr <= lo ? " - H0 accepted"
                           : "");
    }
    const MatchScore *m = &s->score;
    int n = m->wins + m->losses + m->draws;
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", c->engines[0].name, c->engines[1].name,
           m->wins, m->losses, m->draws, n ? (m->wins + 0.5 * m->draws) / n : 0.0, n);
    print_elo_line(s);
}

int main(int argc, char **argv)
{
    util_standard_args(argc, argv, "damka-match", DAMKA_VERSION, usage);
    if (!cluster_start(&argc, &argv))
        return 2;
    int rank = cluster_rank(), ranks = cluster_size();
    static MatchConfig c;
    engine_library_init();
    signal(SIGPIPE, SIG_IGN); // a crashed engine must not take the runner down
    catch_stop_signals();
    c.games = 2;
    c.concurrency = 1;
    c.alpha = c.beta = 0.05;
    c.elo1 = 5;
    c.hang_ms = 60000;
    c.start_timeout_ms = 10000;
    snprintf(c.event, sizeof c.event, "damka-match");
    snprintf(c.site, sizeof c.site, "local");
    if (argc < 2 || !parse_args(argc, argv, &c)) {
        if (rank == 0)
            usage(stderr);
        cluster_finish();
        return 2;
    }
    if (c.nopenings == 0) {
        c.openings = calloc(1, sizeof(Opening));
        board_start(&c.openings[0].start);
        c.nopenings = 1;
    }
    static MatchState s;
    s.cfg = &c;
    pthread_mutex_init(&s.mu, NULL);
    s.order = malloc((size_t)c.nopenings * sizeof(int));
    s.done = calloc((size_t)c.games + 1, sizeof(bool));
    s.ranks = ranks;
    s.rank_games = calloc((size_t)ranks, sizeof(int));
    if (c.resume && !c.pdnout[0]) {
        if (rank == 0)
            fprintf(stderr, "error: -resume needs -pdnout (the games played so far)\n");
        cluster_finish();
        return 2;
    }
    if (rank == 0 && c.resume && !resume_from_pdn(&s))
        cluster_abort(2); // (the other ranks wait for rank 0: they end with it)
    for (int i = 0; i < c.nopenings; i++)
        s.order[i] = (i + c.opening_start) % c.nopenings;
    if (c.random_order) {
        srand(c.seed ? c.seed : (unsigned)time(NULL));
        for (int i = c.nopenings - 1; i > 0; i--) {
            int j = rand() % (i + 1), t = s.order[i];
            s.order[i] = s.order[j];
            s.order[j] = t;
        }
    }
    cluster_broadcast(s.order, (size_t)c.nopenings * sizeof(int)); // rank 0's draw for all
    if (rank > 0) { // another rank: games only; rank 0 writes everything
        pthread_t tid[64];
        int started = 0;
        for (int i = 0; i < c.concurrency; i++)
            if (pthread_create(&tid[started], NULL, remote_worker, &s) == 0)
                started++;
        for (int i = started; i < c.concurrency; i++)
            cluster_send_done(); // threads that did not start still say farewell
        for (int i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
        cluster_finish();
        free(s.order);
        free(s.done);
        free(s.rank_games);
        free(c.openings);
        return 0;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(s.date, sizeof s.date, "%Y.%m.%d", &tm);
    if (c.pdnout[0] && !(s.pdn = fopen(c.pdnout, "a"))) {
        fprintf(stderr, "error: cannot write %s\n", c.pdnout);
        cluster_abort(2);
    }
    pthread_t tid[64], server;
    int started = 0;
    for (int i = 0; i < c.concurrency; i++)
        if (pthread_create(&tid[started], NULL, worker, &s) == 0)
            started++;
    Serving serving = {&s, (ranks - 1) * c.concurrency};
    bool serving_started = ranks > 1 && pthread_create(&server, NULL, serve, &serving) == 0;
    if (ranks > 1 && !serving_started)
        serve(&serving);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (serving_started)
        pthread_join(server, NULL);
    if (atomic_load(&interrupted))
        printf("Interrupted: stopped after %d of %d games\n", s.finished, c.games);
    summary(&s);
    if (s.pdn)
        fclose(s.pdn);
    free(s.order);
    free(s.done);
    free(s.rank_games);
    free(c.openings);
    cluster_finish();
    return started > 0 || ranks > 1 ? 0 : 1;
}
