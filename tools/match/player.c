// SPDX-License-Identifier: MIT
// Owns the engine processes of a match: start, handshake, asking for moves in the UCI-style or
// Hub dialect, and reading replies with deadlines.
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "notation.h"

static void fail(Player *p, const char *what) { snprintf(p->error, sizeof p->error, "%s", what); }

bool player_start(Player *p, const EngineSpec *spec, int64_t timeout_ms)
{
    memset(p->error, 0, sizeof p->error);
    p->spec = spec;
    if (!proc_start(&p->proc, spec->cmd, spec->dir))
        return fail(p, "cannot start the process"), false;
    char line[4096];
    Proc *c = &p->proc;
    int64_t deadline = util_now_ms() + timeout_ms;
    if (spec->proto == PROTO_UCI) {
        if (!proc_send(c, "uci") ||
            proc_wait_for(c, "uciok", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no uciok"), player_stop(p), false;
        for (int i = 0; i < spec->noptions; i++)
            proc_send(c, "setoption name %s value %s", spec->opt_name[i], spec->opt_value[i]);
        if (!proc_send(c, "isready") ||
            proc_wait_for(c, "readyok", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no readyok"), player_stop(p), false;
    } else {
        if (!proc_send(c, "hub") ||
            proc_wait_for(c, "wait", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no wait after hub"), player_stop(p), false;
        for (int i = 0; i < spec->noptions; i++)
            proc_send(c, "set-param name=%s value=%s", spec->opt_name[i], spec->opt_value[i]);
        if (!proc_send(c, "init") ||
            proc_wait_for(c, "ready", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no ready after init"), player_stop(p), false;
    }
    return true;
}

void player_stop(Player *p) { proc_stop(&p->proc, "quit"); }

bool player_alive(const Player *p) { return p->proc.alive; }

bool player_new_game(Player *p, int64_t timeout_ms)
{
    char line[4096];
    Proc *c = &p->proc;
    int64_t deadline = util_now_ms() + timeout_ms;
    if (p->spec->proto == PROTO_UCI)
        return proc_send(c, "ucinewgame") && proc_send(c, "isready") &&
               proc_wait_for(c, "readyok", deadline, line, sizeof line) == REPLY_OK;
    return proc_send(c, "new-game") && proc_send(c, "ping") &&
           proc_wait_for(c, "pong", deadline, line, sizeof line) == REPLY_OK;
}

// Appends the game's moves in fmt, separated by spaces.
static void moves_text(const Game *g, MoveFormat fmt, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->nplies && n + MOVE_TEXT_MAX + 2 < len; i++) {
        char m[MOVE_TEXT_MAX];
        notation_move(&g->moves[i], fmt, m, sizeof m);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", m);
    }
}

static bool send_uci_go(Player *p, const Game *g, const TimeControl *tc, const Clock clocks[2])
{
    char fen[FEN_MAX], *moves = p->scratch;
    notation_fen(&g->start, fen, sizeof fen);
    moves_text(g, MOVE_FMT_UCI, moves, sizeof p->scratch);
    if (!proc_send(&p->proc, "position fen %s%s%s", fen, g->nplies ? " moves " : "", moves))
        return false;
    switch (tc->kind) {
    case TC_CLOCK: {
        int mtg = clock_movestogo(&clocks[g->board.side], tc);
        char togo[32] = "";
        if (mtg > 0)
            snprintf(togo, sizeof togo, " movestogo %d", mtg);
        return proc_send(&p->proc, "go wtime %lld btime %lld winc %lld binc %lld%s",
                         (long long)clocks[0].left_ms, (long long)clocks[1].left_ms,
                         (long long)tc->inc_ms, (long long)tc->inc_ms, togo);
    }
    case TC_MOVETIME:
        return proc_send(&p->proc, "go movetime %lld", (long long)tc->movetime_ms);
    case TC_DEPTH:
        return proc_send(&p->proc, "go depth %d", tc->depth);
    case TC_NODES:
        return proc_send(&p->proc, "go nodes %lld", (long long)tc->nodes);
    case TC_NONE:
        break;
    }
    return proc_send(&p->proc, "go depth 1");
}

static bool send_hub_go(Player *p, const Game *g, const TimeControl *tc, const Clock clocks[2])
{
    char pos[64], *moves = p->scratch;
    notation_hub_pos(&g->start, pos, sizeof pos);
    moves_text(g, MOVE_FMT_HUB, moves, sizeof p->scratch);
    if (!proc_send(&p->proc, "pos pos=%s moves=\"%s\"", pos, moves))
        return false;
    bool ok = false;
    const Clock *c = &clocks[g->board.side];
    switch (tc->kind) {
    case TC_CLOCK: {
        int mtg = clock_movestogo(c, tc);
        char togo[32] = "";
        if (mtg > 0)
            snprintf(togo, sizeof togo, "moves=%d ", mtg);
        ok = proc_send(&p->proc, "level %stime=%.3f inc=%.3f", togo, (double)c->left_ms / 1000.0,
                       (double)tc->inc_ms / 1000.0);
        break;
    }
    case TC_MOVETIME:
        ok = proc_send(&p->proc, "level move-time=%.3f", (double)tc->movetime_ms / 1000.0);
        break;
    case TC_DEPTH:
        ok = proc_send(&p->proc, "level depth=%d", tc->depth);
        break;
    case TC_NODES:
        ok = proc_send(&p->proc, "level nodes=%lld", (long long)tc->nodes);
        break;
    case TC_NONE:
        ok = proc_send(&p->proc, "level depth=1");
        break;
    }
    return ok && proc_send(&p->proc, "go think");
}

// Reads the score of an info line: UCI "score cp X" / "score mate N", Hub "score=1.25".
static void read_score(const char *line, bool hub, bool *has, int *score)
{
    const char *s;
    if (hub) {
        if ((s = strstr(line, " score=")) != NULL) {
            *score = (int)(strtod(s + 7, NULL) * 100.0);
            *has = true;
        }
        return;
    }
    if ((s = strstr(line, " score cp ")) != NULL) {
        *score = (int)strtol(s + 10, NULL, 10);
        *has = true;
    } else if ((s = strstr(line, " score mate ")) != NULL) {
        int n = (int)strtol(s + 12, NULL, 10);
        *score = n > 0 ? 30000 - n : -30000 - n;
        *has = true;
    }
}

// Finds the move text in a bestmove/done line.
static bool reply_move(const char *line, bool hub, char *move, size_t len)
{
    const char *s = hub ? strstr(line, " move=") : line + strlen("bestmove");
    if (!s)
        return false;
    s += hub ? 6 : 0;
    while (*s == ' ')
        s++;
    size_t n = strcspn(s, " \t");
    if (n == 0 || n >= len)
        return false;
    memcpy(move, s, n);
    move[n] = '\0';
    return true;
}

ReplyStatus player_go(Player *p, const Game *g, const TimeControl *tc, const Clock clocks[2],
                      int64_t deadline_ms, Move *m, bool *has_score, int *score_cp,
                      int64_t *used_ms)
{
    bool hub = p->spec->proto == PROTO_HUB;
    *has_score = false;
    int64_t t0 = util_now_ms();
    bool sent = hub ? send_hub_go(p, g, tc, clocks) : send_uci_go(p, g, tc, clocks);
    if (!sent) {
        fail(p, "crash (cannot write to the engine)");
        return REPLY_CRASH;
    }
    char line[16384], text[MOVE_TEXT_MAX], err[160];
    for (;;) {
        ReplyStatus s = proc_read_line(&p->proc, t0 + deadline_ms, line, sizeof line);
        *used_ms = util_now_ms() - t0;
        if (s == REPLY_TIMEOUT)
            return fail(p, "no move in time (hang or time loss)"), s;
        if (s == REPLY_CRASH)
            return fail(p, "crash (engine exited)"), s;
        if (s == REPLY_BAD)
            return fail(p, "malformed reply (over-long line)"), s;
        if (strncmp(line, "info", 4) == 0 && (line[4] == ' ' || line[4] == '\0')) {
            read_score(line, hub, has_score, score_cp);
            continue;
        }
        const char *word = hub ? "done" : "bestmove";
        size_t wl = strlen(word);
        bool final = strncmp(line, word, wl) == 0 && (line[wl] == ' ' || line[wl] == '\0');
        if (!final)
            continue; // other lines (id, option, info string...) are ignored
        if (!reply_move(line, hub, text, sizeof text)) {
            snprintf(p->error, sizeof p->error, "malformed reply '%.60s'", line);
            return REPLY_BAD;
        }
        if (!notation_parse_move(&g->board, text, hub ? MOVE_FMT_HUB : MOVE_FMT_ALG, m, err,
                                 sizeof err)) {
            snprintf(p->error, sizeof p->error, "illegal move '%.40s' (%.80s)", text, err);
            return REPLY_BAD;
        }
        return REPLY_OK;
    }
}
