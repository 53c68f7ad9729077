// SPDX-License-Identifier: MIT
// Owns the GUI's engine process: the handshake, the searches sent and what their results are
// for (the engine's move, pondering, analysis), its info lines read back into notation through
// the engine library, and its health (a crash or a hang restarts it).
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

// True once the server is stopping. Takes the lock.
static bool quitting(Session *s)
{
    pthread_mutex_lock(&s->mu);
    bool q = s->quit;
    pthread_mutex_unlock(&s->mu);
    return q;
}

// Reads lines of p until one whose first word is `word`, in POLL_MS slices so that a stopping
// server is not held up; REPLY_TIMEOUT after wait_ms (or at once when quitting).
static ReplyStatus wait_word(Session *s, Proc *p, const char *word, int64_t wait_ms,
                             char name[GUI_NAME_MAX])
{
    char line[16384];
    int64_t deadline = now_ms() + wait_ms;
    size_t wl = strlen(word);
    while (!quitting(s)) {
        int64_t t = now_ms();
        if (t >= deadline)
            return REPLY_TIMEOUT;
        ReplyStatus r =
            proc_read_line(p, t + POLL_MS < deadline ? t + POLL_MS : deadline, line, sizeof line);
        if (r == REPLY_TIMEOUT)
            continue;
        if (r != REPLY_OK)
            return r;
        if (name && strncmp(line, "id name ", 8) == 0)
            snprintf(name, GUI_NAME_MAX, "%.*s", GUI_NAME_MAX - 1,
                     line + 8); // a longer name is cut
        if (strncmp(line, word, wl) == 0 && (line[wl] == '\0' || line[wl] == ' '))
            return REPLY_OK;
    }
    return REPLY_TIMEOUT;
}

// Why a process that ended at once did not start, from its wait status.
static void explain_exit(int status, const char *cmd, char *why, size_t len)
{
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(why, len, "cannot run %.100s: no such program", cmd);
    else if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 126)
        snprintf(why, len, "cannot run %.100s: not an executable program", cmd);
    else
        snprintf(why, len, "%.100s ended before it answered 'uci'", cmd);
}

// Starts the engine and does the handshake with the lock released, so that the page and the
// server go on meanwhile. Called by the reader thread with the lock held; returns with it held.
// False, with the reason in the state, when the engine does not start.
bool driver_start(Session *s)
{
    s->engine_up = false;
    s->nqueue = 0;
    s->stop_sent_ms = 0;
    s->engine_starting = true;
    char cmd[sizeof s->cmd], book[sizeof s->book_option], name[GUI_NAME_MAX] = "", why[160] = "";
    snprintf(cmd, sizeof cmd, "%s", s->cmd);
    snprintf(book, sizeof book, "%s", s->book_option);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    Proc p;
    bool ok = false;
    ReplyStatus r;
    if (!proc_start(&p, cmd, NULL)) {
        snprintf(why, sizeof why, "cannot start %.100s", cmd);
    } else if (proc_send(&p, "uci"),
               (r = wait_word(s, &p, "uciok", UCI_WAIT_MS, name)) != REPLY_OK) {
        if (r == REPLY_CRASH)
            explain_exit(proc_stop(&p, NULL), cmd, why, sizeof why);
        else
            snprintf(why, sizeof why, "%.100s did not answer 'uci' within %d s", cmd,
                     UCI_WAIT_MS / 1000);
    } else {
        if (strcmp(book, "none") == 0)
            proc_send(&p, "setoption name OwnBook value false");
        else if (book[0])
            proc_send(&p, "setoption name BookFile value %s", book);
        ok = true;
    }
    if (!ok && p.started)
        proc_stop(&p, NULL);
    pthread_mutex_lock(&s->mu);
    s->engine_starting = false;
    if (!ok || s->quit) {
        if (ok)
            proc_stop(&p, "quit");
        snprintf(s->engine_status, sizeof s->engine_status, "%s", why);
        return false;
    }
    // The options as they are now (the page may have changed them meanwhile).
    s->proc = p;
    snprintf(s->engine_name, sizeof s->engine_name, "%s", name);
    proc_send(&s->proc, "setoption name Hash value %d", s->hash_mb);
    proc_send(&s->proc, "setoption name Threads value %d", s->threads);
    proc_send(&s->proc, "setoption name MultiPV value %d", s->multipv);
    proc_send(&s->proc, "setoption name Ponder value %s", s->ponder ? "true" : "false");
    if (s->level != SKILL_FULL) // (other engines need not know the option)
        proc_send(&s->proc, "setoption name Skill Level value %d", s->level);
    proc_send(&s->proc, "isready");
    pthread_mutex_unlock(&s->mu);
    r = wait_word(s, &s->proc, "readyok", HANDSHAKE_MS, NULL); // only this thread reads it
    pthread_mutex_lock(&s->mu);
    if (r != REPLY_OK) {
        snprintf(s->engine_status, sizeof s->engine_status, "no readyok from %.100s", cmd);
        proc_stop(&s->proc, NULL);
        return false;
    }
    s->engine_up = true;
    s->ever_up = true;
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
// The next position of the whole-game analysis: a search, or the scores of the game's end.
static void game_analysis_step(Session *s)
{
    for (int i = 0; i < s->nqueue; i++)
        if (!s->queue[i].cancelled)
            return; // one position at a time
    for (; s->ga.next <= s->game.nplies; s->ga.next++) {
        Game g;
        session_game_at(s, s->ga.next, &g);
        if (g.outcome == OUT_NONE)
            break;
        // The game ended there: the result is its score (White's view, as the graph keeps).
        s->score[s->ga.next] = g.outcome == OUT_WHITE_WINS   ? GUI_WIN
                               : g.outcome == OUT_BLACK_WINS ? -GUI_WIN
                                                             : 0;
        s->has_score[s->ga.next] = true;
    }
    if (s->ga.next > s->game.nplies) {
        session_stop_game_analysis(s);
        return;
    }
    char limits[64];
    snprintf(limits, sizeof limits, "movetime %lld", (long long)s->ga.movetime_ms);
    send_go(s, SEARCH_GAME, s->ga.next, NULL, limits, s->ga.movetime_ms);
}

void driver_work(Session *s)
{
    char limits[160];
    if (s->ga.running) {
        game_analysis_step(s);
    } else if (session_engine_moves(s)) {
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
    l.pov = g.board.side;
    if (p->kind != SEARCH_GAME)
        s->lines[l.multipv - 1] = l;
    if (l.multipv == 1) {
        // The graph keeps White's view: cp, and a win as +-GUI_WIN less its distance.
        int v = l.mate ? (l.score > 0 ? GUI_WIN - l.score : -GUI_WIN - l.score) : l.score;
        s->score[p->ply] = l.pov == SIDE_WHITE ? v : -v;
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
                   "\"nps\":%llu,\"time\":%lld,\"pov\":\"%s\",\"from\":\"%s\",\"to\":\"%s\","
                   "\"pv\":",
                   first ? "" : ",", l->multipv, l->depth, l->mate ? "true" : "false", l->score,
                   (unsigned long long)l->nodes, (unsigned long long)l->nps, (long long)l->time_ms,
                   l->pov == SIDE_WHITE ? "white" : "black", l->from, l->to);
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
    if (!p->cancelled && p->kind == SEARCH_GAME && s->ga.running && p->ply == s->ga.next) {
        s->ga.next++;
        driver_work(s);
        return;
    }
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
    } else if (strncmp(line, "info ", 5) == 0 && !p->cancelled && p->kind != SEARCH_PONDER &&
               strstr(line, " score ")) { // pondering is not shown: it is the person's turn
        if (read_info(s, p, line) && p->kind != SEARCH_GAME)
            publish_info(s);
    }
}

// A start that failed: the engine is left alone for a while (longer after each failure), and
// the game goes on between people. The reason is in the state's message already.
static void start_failed(Session *s)
{
    int shift = s->start_failures < 6 ? s->start_failures : 6;
    int64_t wait_ms = RETRY_MS << shift;
    s->start_failures++;
    s->retry_at_ms = now_ms() + wait_ms;
    s->engine_side = PLAY_NONE;
    char reason[sizeof s->engine_status];
    snprintf(reason, sizeof reason, "%s", s->engine_status);
    snprintf(s->engine_status, sizeof s->engine_status,
             "%.100s; moves between people go on; trying again in %lld s", reason,
             (long long)(wait_ms / 1000));
}

// Starts the engine, and on success what it should do; publishes the state.
static void start_engine(Session *s, const char *what)
{
    if (driver_start(s)) {
        s->start_failures = 0;
        if (what)
            snprintf(s->engine_status, sizeof s->engine_status,
                     "the engine %s; restarted (restart %d)", what, s->restarts);
        else
            s->engine_status[0] = '\0';
        driver_work(s);
    } else if (!s->quit) {
        start_failed(s);
    }
    session_publish_state(s);
}

// The engine died or hung: report it, start it again and resume.
static void engine_failed(Session *s, const char *what)
{
    proc_stop(&s->proc, NULL);
    s->engine_up = false;
    s->restarts++;
    start_engine(s, what);
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
    start_engine(s, NULL);
    while (!s->quit) {
        if (!s->engine_up) { // a failed start: wait (a stopping server wakes it), then again
            if (now_ms() < s->retry_at_ms) {
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_nsec += POLL_MS * 1000000L;
                if (until.tv_nsec >= 1000000000L)
                    until.tv_sec++, until.tv_nsec -= 1000000000L;
                pthread_cond_timedwait(&s->changed, &s->mu, &until);
            } else {
                s->restarts++;
                start_engine(s, "was not running");
            }
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
