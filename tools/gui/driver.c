// SPDX-License-Identifier: MIT
// Owns the GUI's engine process: the handshake, the searches sent and what their results are
// for (the engine's move, pondering, analysis), its info lines read back into notation through
// the engine library, and its health (a crash or a hang restarts it).
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"

// The moves of the game up to ply, as UCI text, into out.
static void moves_text(const Session *s, int ply, Buf *out)
{
    for (int i = 0; i < ply; i++) {
        char m[MOVE_TEXT_MAX];
        notation_move(&s->game.moves[i], MOVE_FMT_UCI, m, sizeof m);
        buf_printf(out, " %s", m);
    }
}

// Starts the engine and does the handshake. Called with the lock held (the reader thread, or
// at start before it runs).
bool driver_start(Session *s)
{
    char line[16384];
    s->engine_up = false;
    s->nqueue = 0;
    s->stop_sent_ms = 0;
    if (!proc_start(&s->proc, s->cmd, NULL)) {
        snprintf(s->engine_status, sizeof s->engine_status, "cannot start %.100s", s->cmd);
        return false;
    }
    proc_send(&s->proc, "uci");
    int64_t deadline = now_ms() + HANDSHAKE_MS;
    for (;;) {
        if (proc_read_line(&s->proc, deadline, line, sizeof line) != REPLY_OK) {
            snprintf(s->engine_status, sizeof s->engine_status, "no uciok from %.100s", s->cmd);
            proc_stop(&s->proc, NULL);
            return false;
        }
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(s->engine_name, sizeof s->engine_name, "%.*s", (int)sizeof s->engine_name - 1,
                     line + 8); // a longer name is cut
        if (strcmp(line, "uciok") == 0)
            break;
    }
    proc_send(&s->proc, "setoption name Hash value %d", s->hash_mb);
    proc_send(&s->proc, "setoption name Threads value %d", s->threads);
    proc_send(&s->proc, "setoption name MultiPV value %d", s->multipv);
    proc_send(&s->proc, "setoption name Ponder value %s", s->ponder ? "true" : "false");
    if (strcmp(s->book_option, "none") == 0)
        proc_send(&s->proc, "setoption name OwnBook value false");
    else if (s->book_option[0])
        proc_send(&s->proc, "setoption name BookFile value %s", s->book_option);
    proc_send(&s->proc, "isready");
    if (proc_wait_for(&s->proc, "readyok", now_ms() + HANDSHAKE_MS, line, sizeof line) !=
        REPLY_OK) {
        snprintf(s->engine_status, sizeof s->engine_status, "no readyok from %.100s", s->cmd);
        proc_stop(&s->proc, NULL);
        return false;
    }
    s->engine_up = true;
    return true;
}

// Sends `position` for the game at ply (with extra moves after it) and a `go`.
static void send_go(Session *s, SearchKind kind, int ply, const Move *extra, const char *limits,
                    int64_t budget_ms)
{
    if (!s->engine_up || s->nqueue == QUEUE_MAX)
        return;
    Buf b;
    buf_init(&b);
    char fen[FEN_MAX];
    notation_fen(&s->game.start, fen, sizeof fen);
    buf_printf(&b, "position fen %s moves", fen);
    moves_text(s, ply, &b);
    if (extra) {
        char m[MOVE_TEXT_MAX];
        notation_move(extra, MOVE_FMT_UCI, m, sizeof m);
        buf_printf(&b, " %s", m);
    }
    if (!b.failed) {
        proc_send(&s->proc, "%s", b.data);
        proc_send(&s->proc, "go %s%s", kind == SEARCH_PONDER ? "ponder " : "", limits);
        Pending *p = &s->queue[s->nqueue++];
        memset(p, 0, sizeof *p);
        p->kind = kind;
        p->started_ms = now_ms();
        p->deadline_ms = budget_ms > 0 ? p->started_ms + budget_ms + HANG_MARGIN_MS : 0;
        p->ply = ply;
        if (extra)
            p->ponder_move = *extra;
    }
    buf_free(&b);
}

// Drops the results of every search sent and stops the running one.
void driver_cancel(Session *s)
{
    bool running = false;
    for (int i = 0; i < s->nqueue; i++) {
        running |= !s->queue[i].cancelled;
        s->queue[i].cancelled = true;
    }
    if (running && s->engine_up) {
        proc_send(&s->proc, "stop");
        s->stop_sent_ms = now_ms();
    }
}

// The clock limits of a `go` for the side to move.
static void clock_limits(const Session *s, char *out, size_t len)
{
    if (!s->clocked) {
        snprintf(out, len, "movetime %lld", (long long)s->movetime_ms);
        return;
    }
    int64_t w = s->clock_ms[SIDE_WHITE], bl = s->clock_ms[SIDE_BLACK];
    Side us = session_side_to_move(s);
    // The side to move's clock has been running since its turn began.
    if (us == SIDE_WHITE)
        w -= now_ms() - s->turn_start_ms;
    else
        bl -= now_ms() - s->turn_start_ms;
    snprintf(out, len, "wtime %lld btime %lld winc %lld binc %lld", (long long)w, (long long)bl,
             (long long)s->inc_ms, (long long)s->inc_ms);
}

int64_t driver_budget(const Session *s)
{
    return s->clocked ? s->clock_ms[session_side_to_move(s)] + s->inc_ms : s->movetime_ms;
}

// Starts what the engine should do now: its move, pondering, or analysis.
void driver_work(Session *s)
{
    char limits[160];
    if (session_engine_moves(s)) {
        clock_limits(s, limits, sizeof limits);
        send_go(s, SEARCH_THINK, s->view, NULL, limits, driver_budget(s));
    } else if (s->analysing) {
        session_clear_lines(s);
        Game g;
        session_game_at(s, s->view, &g);
        MoveList list;
        if (engine_moves_of(&g.board, &list) > 0)
            send_go(s, SEARCH_ANALYSE, s->view, NULL, "infinite", 0);
    }
}

// The position changed under the engine: drop what it searches and start again.
void driver_restart(Session *s)
{
    driver_cancel(s);
    driver_work(s);
}

// Parses one info line of the engine into the analysis lines (PV replayed from the searched
// position, so any engine's move text is read); false if it is not a search report.
static bool read_info(Session *s, const Pending *p, char *line)
{
    char *tok[512];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " ", &save); t && n < 512;
         t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    Line l = {.set = true, .multipv = 1};
    bool has_score = false;
    int pv_at = -1;
    for (int i = 1; i + 1 < n; i++) {
        if (strcmp(tok[i], "depth") == 0)
            l.depth = atoi(tok[++i]);
        else if (strcmp(tok[i], "multipv") == 0)
            l.multipv = atoi(tok[++i]);
        else if (strcmp(tok[i], "nodes") == 0)
            l.nodes = strtoull(tok[++i], NULL, 10);
        else if (strcmp(tok[i], "nps") == 0)
            l.nps = strtoull(tok[++i], NULL, 10);
        else if (strcmp(tok[i], "time") == 0)
            l.time_ms = strtoll(tok[++i], NULL, 10);
        else if (strcmp(tok[i], "score") == 0 && i + 2 < n) {
            l.mate = strcmp(tok[i + 1], "mate") == 0;
            l.score = atoi(tok[i + 2]);
            has_score = true;
            i += 2;
        } else if (strcmp(tok[i], "pv") == 0) {
            pv_at = i + 1;
            break;
        }
    }
    if (!has_score || l.multipv < 1 || l.multipv > GUI_LINES_MAX)
        return false;
    Game g;
    session_game_at(s, p->ply, &g);
    Board b = g.board;
    if (p->kind == SEARCH_PONDER) // it searches the position after the expected reply
        board_play(&b, &p->ponder_move);
    size_t used = 0;
    for (int i = pv_at; pv_at > 0 && i < n; i++) {
        Move m;
        char text[MOVE_TEXT_MAX], err[128];
        if (!notation_parse_move(&b, tok[i], MOVE_FMT_ALG, &m, err, sizeof err))
            break;
        notation_move(&m, MOVE_FMT_ALG, text, sizeof text);
        if (i == pv_at) {
            notation_square(m.from, l.from);
            notation_square(m.to, l.to);
        }
        if (used + strlen(text) + 2 >= sizeof l.pv)
            break;
        used += (size_t)snprintf(l.pv + used, sizeof l.pv - used, "%s%s", used ? " " : "", text);
        board_play(&b, &m);
    }
    s->lines[l.multipv - 1] = l;
    if (l.multipv == 1 && p->kind != SEARCH_PONDER) {
        // The graph keeps White's view: cp, and a mate as +-10000 less its distance.
        int v = l.mate ? (l.score > 0 ? 10000 - l.score : -10000 - l.score) : l.score;
        Side side = (p->ply & 1) ? side_flip(s->game.start.side) : s->game.start.side;
        s->score[p->ply] = side == SIDE_WHITE ? v : -v;
        s->has_score[p->ply] = true;
    }
    return true;
}

static void publish_info(Session *s)
{
    Buf b;
    buf_init(&b);
    buf_printf(&b, "{\"lines\":[");
    for (int i = 0, first = 1; i < GUI_LINES_MAX; i++) {
        const Line *l = &s->lines[i];
        if (!l->set)
            continue;
        buf_printf(&b,
                   "%s{\"multipv\":%d,\"depth\":%d,\"mate\":%s,\"score\":%d,\"nodes\":%llu,"
                   "\"nps\":%llu,\"time\":%lld,\"from\":\"%s\",\"to\":\"%s\",\"pv\":",
                   first ? "" : ",", l->multipv, l->depth, l->mate ? "true" : "false", l->score,
                   (unsigned long long)l->nodes, (unsigned long long)l->nps, (long long)l->time_ms,
                   l->from, l->to);
        buf_json_string(&b, l->pv);
        buf_printf(&b, "}");
        first = 0;
    }
    buf_printf(&b, "]}");
    if (!b.failed)
        session_push_event(s, "info", b.data);
    buf_free(&b);
}

// The engine's bestmove for search p.
static void read_best(Session *s, const Pending *p, const char *line)
{
    char best[MOVE_TEXT_MAX] = "", ponder[MOVE_TEXT_MAX] = "";
    sscanf(line, "bestmove %63s ponder %63s", best, ponder);
    if (p->cancelled || p->kind != SEARCH_THINK || p->ply != s->game.nplies ||
        !session_engine_moves(s))
        return;
    Move m, pm;
    char err[128];
    if (!notation_parse_move(&s->game.board, best, MOVE_FMT_ALG, &m, err, sizeof err)) {
        snprintf(s->engine_status, sizeof s->engine_status,
                 "the engine played '%.40s' (%.60s): play stopped", best, err);
        s->engine_side = PLAY_NONE;
        return;
    }
    session_play_move(s, &m);
    s->from_book[s->game.nplies] = p->from_book;
    if (session_engine_moves(s)) { // engine against engine
        driver_work(s);
        return;
    }
    if (s->ponder && ponder[0] && s->game.outcome == OUT_NONE &&
        notation_parse_move(&s->game.board, ponder, MOVE_FMT_ALG, &pm, err, sizeof err)) {
        char limits[160];
        clock_limits(s, limits, sizeof limits);
        send_go(s, SEARCH_PONDER, s->view, &pm, limits, 0);
        return;
    }
    driver_work(s);
}

// Handles one line from the engine. Called with the lock held.
static void engine_line(Session *s, char *line)
{
    if (s->nqueue == 0)
        return;
    Pending *p = &s->queue[0];
    if (strncmp(line, "bestmove", 8) == 0) {
        Pending done = *p;
        memmove(s->queue, s->queue + 1, (size_t)(--s->nqueue) * sizeof *p);
        if (s->nqueue == 0 || !s->queue[0].cancelled)
            s->stop_sent_ms = 0;
        read_best(s, &done, line);
        session_publish_state(s);
    } else if (strncmp(line, "info string book move ", 22) == 0 && !p->cancelled) {
        p->from_book = true;
    } else if (strncmp(line, "info ", 5) == 0 && !p->cancelled && strstr(line, " score ")) {
        if (read_info(s, p, line))
            publish_info(s);
    }
}

// The engine died or hung: report it, start it again and resume.
static void engine_failed(Session *s, const char *what)
{
    proc_stop(&s->proc, NULL);
    s->engine_up = false;
    s->restarts++;
    bool ok = driver_start(s);
    snprintf(s->engine_status, sizeof s->engine_status, "the engine %s; %s (restart %d)", what,
             ok ? "restarted" : "it did not start again", s->restarts);
    if (ok)
        driver_work(s);
    session_publish_state(s);
}

// Flags a side whose clock has run out while it thinks.
static void check_flag(Session *s)
{
    if (!s->clocked || s->game.outcome != OUT_NONE || s->engine_side == PLAY_NONE)
        return;
    Side us = session_side_to_move(s);
    if (s->clock_ms[us] - (now_ms() - s->turn_start_ms) >= 0)
        return;
    s->clock_ms[us] = 0;
    game_end(&s->game, us == SIDE_WHITE ? OUT_BLACK_WINS : OUT_WHITE_WINS,
             us == SIDE_WHITE ? "White lost on time" : "Black lost on time");
    driver_cancel(s);
    session_publish_state(s);
}

void *driver_reader(void *arg)
{
    Session *s = arg;
    char line[16384];
    pthread_mutex_lock(&s->mu);
    while (!s->quit) {
        if (!s->engine_up) {
            pthread_mutex_unlock(&s->mu);
            struct timespec ts = {1, 0};
            nanosleep(&ts, NULL); // a failed start: try again every second
            pthread_mutex_lock(&s->mu);
            if (!s->quit && !s->engine_up)
                engine_failed(s, "was not running");
            continue;
        }
        pthread_mutex_unlock(&s->mu);
        // Only this thread reads the engine, and only it replaces the process.
        ReplyStatus r = proc_read_line(&s->proc, now_ms() + POLL_MS, line, sizeof line);
        pthread_mutex_lock(&s->mu);
        if (s->quit)
            break;
        if (r == REPLY_OK) {
            engine_line(s, line);
        } else if (r == REPLY_CRASH) {
            engine_failed(s, "crashed");
        } else {
            int64_t t = now_ms();
            bool hung = (s->nqueue > 0 && s->queue[0].deadline_ms && t > s->queue[0].deadline_ms) ||
                        (s->stop_sent_ms && t - s->stop_sent_ms > STOP_WAIT_MS);
            if (hung)
                engine_failed(s, "stopped answering");
            check_flag(s);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}
