// SPDX-License-Identifier: MIT
// Owns the engine processes of a match: start, handshake, asking for moves in the UCI-style or
// Hub dialect, and reading replies with deadlines.
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "notation.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool send_line(Player *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool send_line(Player *p, const char *fmt, ...)
{
    if (!p->alive)
        return false;
    va_list ap;
    va_start(ap, fmt);
    int ok = vfprintf(p->to, fmt, ap) >= 0 && fputc('\n', p->to) != EOF && fflush(p->to) == 0;
    va_end(ap);
    return ok;
}

// Reads one line before the deadline. Returns REPLY_OK with the line in out.
static ReplyStatus read_line(Player *p, int64_t deadline, char *out, size_t len)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->buflen);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            size_t copy = n < len - 1 ? n : len - 1;
            memcpy(out, p->buf, copy);
            out[copy] = '\0';
            if (copy && out[copy - 1] == '\r')
                out[copy - 1] = '\0';
            memmove(p->buf, nl + 1, p->buflen - n - 1);
            p->buflen -= n + 1;
            return REPLY_OK;
        }
        if (p->buflen == sizeof p->buf) {
            p->buflen = 0; // a line longer than the buffer: garbage
            return REPLY_BAD;
        }
        int64_t wait = deadline - now_ms();
        if (wait <= 0)
            return REPLY_TIMEOUT;
        struct pollfd pfd = {p->from_fd, POLLIN, 0};
        int r = poll(&pfd, 1, wait > 1000000 ? 1000000 : (int)wait);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue;
        ssize_t got = read(p->from_fd, p->buf + p->buflen, sizeof p->buf - p->buflen);
        if (got <= 0)
            return REPLY_CRASH;
        p->buflen += (size_t)got;
    }
}

// Reads lines until one starts with `word`; the line is left in out.
static ReplyStatus wait_for(Player *p, const char *word, int64_t deadline, char *out, size_t len)
{
    size_t wl = strlen(word);
    for (;;) {
        ReplyStatus s = read_line(p, deadline, out, len);
        if (s != REPLY_OK)
            return s;
        if (strncmp(out, word, wl) == 0 && (out[wl] == '\0' || out[wl] == ' '))
            return REPLY_OK;
    }
}

static void fail(Player *p, const char *what)
{
    snprintf(p->error, sizeof p->error, "%s", what);
}

bool player_start(Player *p, const EngineSpec *spec, int64_t timeout_ms)
{
    memset(p, 0, sizeof *p);
    p->spec = spec;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return fail(p, "pipe failed"), false;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return fail(p, "pipe failed"), false;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return fail(p, "fork failed"), false;
    }
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec.
        if (spec->dir[0] && chdir(spec->dir) != 0)
            _exit(127);
        dup2(in[0], 0);
        dup2(out[1], 1);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        char cmd[600];
        size_t n = strlen(spec->cmd);
        memcpy(cmd, "exec ", 5);
        memcpy(cmd + 5, spec->cmd, n + 1);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    p->to = fdopen(p->to_fd, "w");
    p->alive = p->to != NULL;
    if (!p->alive) {
        player_stop(p);
        return fail(p, "fdopen failed"), false;
    }
    char line[4096];
    int64_t deadline = now_ms() + timeout_ms;
    if (spec->proto == PROTO_UCI) {
        if (!send_line(p, "uci") || wait_for(p, "uciok", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no uciok"), player_stop(p), false;
        for (int i = 0; i < spec->noptions; i++)
            send_line(p, "setoption name %s value %s", spec->opt_name[i], spec->opt_value[i]);
        if (!send_line(p, "isready") ||
            wait_for(p, "readyok", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no readyok"), player_stop(p), false;
    } else {
        if (!send_line(p, "hub") || wait_for(p, "wait", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no wait after hub"), player_stop(p), false;
        for (int i = 0; i < spec->noptions; i++)
            send_line(p, "set-param name=%s value=%s", spec->opt_name[i], spec->opt_value[i]);
        if (!send_line(p, "init") || wait_for(p, "ready", deadline, line, sizeof line) != REPLY_OK)
            return fail(p, "no ready after init"), player_stop(p), false;
    }
    return true;
}

void player_stop(Player *p)
{
    if (p->pid > 0) {
        if (p->to && p->alive) {
            fprintf(p->to, "quit\n");
            fflush(p->to);
        }
        // Give it a moment to quit cleanly, then kill it.
        for (int i = 0; i < 50; i++) {
            if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
                p->pid = 0;
                break;
            }
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        if (p->pid > 0) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, NULL, 0);
        }
    }
    if (p->to)
        fclose(p->to);
    else if (p->to_fd > 0)
        close(p->to_fd);
    if (p->from_fd > 0)
        close(p->from_fd);
    p->to = NULL;
    p->to_fd = p->from_fd = -1;
    p->pid = 0;
    p->alive = false;
}

bool player_new_game(Player *p, int64_t timeout_ms)
{
    char line[4096];
    int64_t deadline = now_ms() + timeout_ms;
    if (p->spec->proto == PROTO_UCI)
        return send_line(p, "ucinewgame") && send_line(p, "isready") &&
               wait_for(p, "readyok", deadline, line, sizeof line) == REPLY_OK;
    return send_line(p, "new-game") && send_line(p, "ping") &&
           wait_for(p, "pong", deadline, line, sizeof line) == REPLY_OK;
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
    if (!send_line(p, "position fen %s%s%s", fen, g->nplies ? " moves " : "", moves))
        return false;
    switch (tc->kind) {
    case TC_CLOCK: {
        int mtg = clock_movestogo(&clocks[g->board.side], tc);
        char togo[32] = "";
        if (mtg > 0)
            snprintf(togo, sizeof togo, " movestogo %d", mtg);
        return send_line(p, "go wtime %lld btime %lld winc %lld binc %lld%s",
                         (long long)clocks[0].left_ms, (long long)clocks[1].left_ms,
                         (long long)tc->inc_ms, (long long)tc->inc_ms, togo);
    }
    case TC_MOVETIME: return send_line(p, "go movetime %lld", (long long)tc->movetime_ms);
    case TC_DEPTH: return send_line(p, "go depth %d", tc->depth);
    case TC_NODES: return send_line(p, "go nodes %lld", (long long)tc->nodes);
    case TC_NONE: break;
    }
    return send_line(p, "go depth 1");
}

static bool send_hub_go(Player *p, const Game *g, const TimeControl *tc, const Clock clocks[2])
{
    char pos[64], *moves = p->scratch;
    notation_hub_pos(&g->start, pos, sizeof pos);
    moves_text(g, MOVE_FMT_HUB, moves, sizeof p->scratch);
    if (!send_line(p, "pos pos=%s moves=\"%s\"", pos, moves))
        return false;
    bool ok = false;
    const Clock *c = &clocks[g->board.side];
    switch (tc->kind) {
    case TC_CLOCK: {
        int mtg = clock_movestogo(c, tc);
        char togo[32] = "";
        if (mtg > 0)
            snprintf(togo, sizeof togo, "moves=%d ", mtg);
        ok = send_line(p, "level %stime=%.3f inc=%.3f", togo, (double)c->left_ms / 1000.0,
                       (double)tc->inc_ms / 1000.0);
        break;
    }
    case TC_MOVETIME: ok = send_line(p, "level move-time=%.3f", (double)tc->movetime_ms / 1000.0); break;
    case TC_DEPTH: ok = send_line(p, "level depth=%d", tc->depth); break;
    case TC_NODES: ok = send_line(p, "level nodes=%lld", (long long)tc->nodes); break;
    case TC_NONE: ok = send_line(p, "level depth=1"); break;
    }
    return ok && send_line(p, "go think");
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
    const char *s = hub ? strstr(line, " move=") : line + 8;
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
    int64_t t0 = now_ms();
    bool sent = hub ? send_hub_go(p, g, tc, clocks) : send_uci_go(p, g, tc, clocks);
    if (!sent) {
        fail(p, "crash (cannot write to the engine)");
        return REPLY_CRASH;
    }
    char line[16384], text[MOVE_TEXT_MAX], err[160];
    for (;;) {
        ReplyStatus s = read_line(p, t0 + deadline_ms, line, sizeof line);
        *used_ms = now_ms() - t0;
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
        bool final = hub ? strncmp(line, "done", 4) == 0 : strncmp(line, "bestmove ", 9) == 0;
        if (!final)
            continue; // other lines (id, option, info string...) are ignored
        if (!reply_move(line, hub, text, sizeof text)) {
            snprintf(p->error, sizeof p->error, "malformed reply '%.60s'", line);
            return REPLY_BAD;
        }
        if (!notation_parse_move(&g->board, text, hub ? MOVE_FMT_HUB : MOVE_FMT_ALG, m, err,
                                 sizeof err)) {
            snprintf(p->error, sizeof p->error, "illegal move '%.40s' (%s)", text, err);
            return REPLY_BAD;
        }
        return REPLY_OK;
    }
}
