// SPDX-License-Identifier: MIT
// Owns the GUI's session: the game (through the match runner's Game, so the rules are the
// engine library's), the clocks, the PDN library, the state the page draws and the live event
// stream. One mutex guards it all; the engine's reader thread (driver.c) and the HTTP threads
// take it.
#include "session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "book.h"
#include "engine.h"

// ---- Events ---------------------------------------------------------------------------------

// Adds an SSE frame (event name, JSON data). Called with the lock held.
void session_push_event(Session *s, const char *name, const char *json)
{
    Buf b;
    buf_init(&b);
    buf_printf(&b, "event: %s\ndata: %s\n\n", name, json);
    if (b.failed) {
        buf_free(&b);
        return;
    }
    char **slot = &s->events[s->head % GUI_EVENTS];
    free(*slot);
    *slot = b.data;
    s->head++;
    pthread_cond_broadcast(&s->changed);
}

uint64_t session_event_head(Session *s)
{
    pthread_mutex_lock(&s->mu);
    uint64_t h = s->head;
    pthread_mutex_unlock(&s->mu);
    return h;
}

bool session_wait_event(Session *s, uint64_t seq, int timeout_ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += timeout_ms / 1000;
    ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&s->mu);
    while (!s->quit && s->head <= seq)
        if (pthread_cond_timedwait(&s->changed, &s->mu, &ts) == ETIMEDOUT)
            break;
    bool alive = !s->quit;
    pthread_mutex_unlock(&s->mu);
    return alive;
}

void session_event(Session *s, uint64_t *seq, Buf *out)
{
    pthread_mutex_lock(&s->mu);
    if (s->head > *seq + GUI_EVENTS - 1) // fell behind: what was lost is in the next state
        *seq = s->head - 1;
    if (*seq < s->head) {
        buf_printf(out, "%s", s->events[*seq % GUI_EVENTS]);
        (*seq)++;
    }
    pthread_mutex_unlock(&s->mu);
}

void session_clear_lines(Session *s) { memset(s->lines, 0, sizeof s->lines); }

void session_stop_game_analysis(Session *s)
{
    if (!s->ga.running)
        return;
    s->ga.running = false;
    if (s->engine_up)
        proc_send(&s->proc, "setoption name UCI_AnalyseMode value false");
}

// ---- The game -------------------------------------------------------------------------------

// The position after `ply` plies of the game, and the game cut there (counters, keys, result).
void session_game_at(const Session *s, int ply, Game *out)
{
    game_start(out, &s->game.start);
    Adjudication none = {0};
    for (int i = 0; i < ply && i < s->game.nplies; i++)
        game_play(out, &s->game.moves[i], false, 0, &none);
}

Side session_side_to_move(const Session *s)
{
    Side side = s->game.start.side;
    return (s->view & 1) ? side_flip(side) : side;
}

bool session_engine_moves(const Session *s)
{
    if (s->engine_side == PLAY_NONE || s->game.outcome != OUT_NONE || s->view != s->game.nplies)
        return false;
    Side us = session_side_to_move(s);
    return s->engine_side == PLAY_BOTH || (s->engine_side == PLAY_WHITE) == (us == SIDE_WHITE);
}

// Plays m (legal at the end of the game line) and charges the mover's clock.
void session_play_move(Session *s, const Move *m)
{
    Adjudication none = {0};
    s->from_book[s->game.nplies + 1] = false; // the driver marks an engine's book move after
    s->record.intact = false;
    Side mover = session_side_to_move(s);
    if (s->clocked) {
        int64_t used = now_ms() - s->turn_start_ms;
        s->clock_ms[mover] -= used;
        if (s->clock_ms[mover] < 0) {
            game_end(&s->game, mover == SIDE_WHITE ? OUT_BLACK_WINS : OUT_WHITE_WINS,
                     mover == SIDE_WHITE ? "White lost on time" : "Black lost on time");
            return;
        }
        s->clock_ms[mover] += s->inc_ms;
    }
    game_play(&s->game, m, false, 0, &none);
    s->view = s->game.nplies;
    s->turn_start_ms = now_ms();
}

// ---- The state ------------------------------------------------------------------------------

static const char *side_name(Side s) { return s == SIDE_WHITE ? "white" : "black"; }

// The pieces of b as {"c3":"w", "a1":"W", ...} (w b men, W B kings).
static void state_board(const Board *b, Buf *out)
{
    static const char PIECE[] = ".wbWB";
    buf_printf(out, "\"pieces\":{");
    for (Square sq = 0, first = 1; sq < SQUARE_COUNT; sq++) {
        int p = board_piece_at(b, sq);
        if (p <= 0 || p > 4)
            continue;
        char name[3];
        notation_square(sq, name);
        buf_printf(out, "%s\"%s\":\"%c\"", first ? "" : ",", name, PIECE[p]);
        first = 0;
    }
    buf_printf(out, "},");
}

// A score as the mover's chances, -1 (lost) .. +1 (won): the scale on which a move's loss is
// judged, so that a man lost in a won position weighs less than in a level one.
static double win_chances(int cp)
{
    if (cp >= GUI_WIN - 1000 || cp <= -(GUI_WIN - 1000) || cp >= 29800 || cp <= -29800)
        return cp > 0 ? 1 : -1; // a win in N, or a database win
    return 2.0 / (1.0 + exp(-cp / (double)MARK_SCALE_CP)) - 1.0;
}

// The moves that lost most, from the scores of the positions before and after each: the mover's
// chances dropped by at least MARK_INACCURACY, MARK_MISTAKE or MARK_BLUNDER.
static void state_marks(const Session *s, Buf *out)
{
    Side mover = s->game.start.side;
    for (int i = 1, first = 1; i <= s->game.nplies; i++, mover = side_flip(mover)) {
        if (!s->has_score[i - 1] || !s->has_score[i])
            continue;
        int sign = mover == SIDE_WHITE ? 1 : -1; // scores are White's view
        double drop = win_chances(sign * s->score[i - 1]) - win_chances(sign * s->score[i]);
        const char *kind = drop >= MARK_BLUNDER      ? "blunder"
                           : drop >= MARK_MISTAKE    ? "mistake"
                           : drop >= MARK_INACCURACY ? "inaccuracy"
                                                     : NULL;
        if (!kind)
            continue;
        buf_printf(out, "%s{\"ply\":%d,\"kind\":\"%s\",\"drop\":%.2f}", first ? "" : ",", i, kind,
                   drop);
        first = 0;
    }
}

static void state_json(Session *s, Buf *out)
{
    Game g;
    session_game_at(s, s->view, &g);
    char fen[FEN_MAX], start[FEN_MAX];
    notation_fen_algebraic(&g.board, fen, sizeof fen);
    notation_fen_algebraic(&s->game.start, start, sizeof start);
    buf_printf(out, "{\"version\":%llu,\"fen\":", (unsigned long long)s->version);
    buf_json_string(out, fen);
    buf_printf(out, ",\"start_fen\":");
    buf_json_string(out, start);
    buf_printf(out, ",\"turn\":\"%s\",\"ply\":%d,\"first_side\":\"%s\",", side_name(g.board.side),
               s->view, side_name(s->game.start.side));
    state_board(&g.board, out);
    // Moves with their algebraic text.
    buf_printf(out, "\"moves\":[");
    for (int i = 0; i < s->game.nplies; i++) {
        char m[MOVE_TEXT_MAX];
        notation_move(&s->game.moves[i], MOVE_FMT_ALG, m, sizeof m);
        buf_printf(out, "%s", i ? "," : "");
        buf_json_string(out, m);
    }
    // Legal moves of the shown position (none once the game line ends there).
    buf_printf(out, "],\"legal\":[");
    MoveList list;
    int n = g.outcome == OUT_NONE ? engine_moves_of(&g.board, &list) : 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &list.moves[i];
        char text[MOVE_TEXT_MAX], sq[3];
        notation_move(m, MOVE_FMT_ALG, text, sizeof text);
        buf_printf(out, "%s{\"text\":", i ? "," : "");
        buf_json_string(out, text);
        notation_square(m->from, sq);
        buf_printf(out, ",\"path\":[\"%s\"", sq);
        for (int k = 0; k < m->npath; k++) {
            notation_square(m->path[k], sq);
            buf_printf(out, ",\"%s\"", sq);
        }
        buf_printf(out, "],\"captures\":%d}", __builtin_popcountll(m->captured));
    }
    // The book's moves of the shown position, and the plies the engine played from its book.
    buf_printf(out, "],\"book\":[");
    BookEntry be[BOOK_MOVES_MAX];
    Move bm[BOOK_MOVES_MAX];
    int nb = g.outcome == OUT_NONE ? book_probe(s->book, &g.board, be, bm, BOOK_MOVES_MAX) : 0;
    for (int i = 0; i < nb; i++) {
        char text[MOVE_TEXT_MAX];
        notation_move(&bm[i], MOVE_FMT_ALG, text, sizeof text);
        buf_printf(out, "%s{\"move\":", i ? "," : "");
        buf_json_string(out, text);
        buf_printf(out, ",\"weight\":%u,\"score\":%d,\"wins\":%u,\"draws\":%u,\"losses\":%u}",
                   be[i].weight, be[i].score, be[i].wins, be[i].draws, be[i].losses);
    }
    buf_printf(out, "],\"book_plies\":[");
    for (int i = 1, first = 1; i <= s->game.nplies; i++)
        if (s->from_book[i]) {
            buf_printf(out, "%s%d", first ? "" : ",", i);
            first = 0;
        }
    // The result of the game line, and of the shown position when it ends there.
    const char *res = s->game.outcome == OUT_WHITE_WINS   ? "1-0"
                      : s->game.outcome == OUT_BLACK_WINS ? "0-1"
                      : s->game.outcome == OUT_DRAW       ? "1/2-1/2"
                                                          : "*";
    buf_printf(out, "],\"result\":\"%s\",\"reason\":", res);
    buf_json_string(out, s->game.reason);
    static const char *const PLAY[] = {"none", "white", "black", "both"};
    buf_printf(out,
               ",\"play\":{\"engine\":\"%s\",\"base\":%lld,\"inc\":%lld,\"movetime\":%lld,"
               "\"ponder\":%s,\"clocked\":%s,\"level\":%d},",
               PLAY[s->engine_side], (long long)s->base_ms, (long long)s->inc_ms,
               (long long)s->movetime_ms, s->ponder ? "true" : "false",
               s->clocked ? "true" : "false", s->level);
    int64_t w = s->clock_ms[SIDE_WHITE], b = s->clock_ms[SIDE_BLACK];
    bool running = s->clocked && s->engine_side != PLAY_NONE && s->game.outcome == OUT_NONE;
    if (running) {
        int64_t used = now_ms() - s->turn_start_ms;
        if (session_side_to_move(s) == SIDE_WHITE)
            w -= used;
        else
            b -= used;
    }
    buf_printf(out, "\"clocks\":{\"white\":%lld,\"black\":%lld,\"running\":%s},", (long long)w,
               (long long)b,
               running ? (session_side_to_move(s) == SIDE_WHITE ? "\"white\"" : "\"black\"")
                       : "null");
    const Pending *busy = NULL; // the search whose result is wanted, if any
    for (int i = 0; i < s->nqueue && !busy; i++)
        if (!s->queue[i].cancelled)
            busy = &s->queue[i];
    const char *status = s->engine_starting            ? "starting"
                         : !s->engine_up               ? "down"
                         : !busy                       ? "idle"
                         : busy->kind == SEARCH_THINK  ? "thinking"
                         : busy->kind == SEARCH_PONDER ? "pondering"
                                                       : "analysing";
    buf_printf(out, "\"engine\":{\"name\":");
    buf_json_string(out, s->engine_name);
    buf_printf(out, ",\"command\":");
    buf_json_string(out, s->cmd);
    buf_printf(out, ",\"status\":\"%s\",\"message\":", status);
    buf_json_string(out, s->engine_status);
    char expected[MOVE_TEXT_MAX] = "";
    if (busy && busy->kind == SEARCH_PONDER)
        notation_move(&busy->ponder_move, MOVE_FMT_ALG, expected, sizeof expected);
    buf_printf(out, ",\"expected\":\"%s\",\"ponderhits\":%d,\"restarts\":%d},\"analysing\":%s,",
               expected, s->ponderhits, s->restarts, s->analysing ? "true" : "false");
    buf_printf(out, "\"options\":{\"hash\":%d,\"threads\":%d,\"multipv\":%d},", s->hash_mb,
               s->threads, s->multipv);
    buf_printf(out, "\"scores\":[");
    for (int i = 0; i <= s->game.nplies; i++) {
        if (s->has_score[i])
            buf_printf(out, "%s%d", i ? "," : "", s->score[i]);
        else
            buf_printf(out, "%snull", i ? "," : "");
    }
    buf_printf(out,
               "],\"record\":{\"imported\":%s,\"event\":", s->record.imported ? "true" : "false");
    const Record *rec = &s->record;
    buf_json_string(out, rec->event);
    buf_printf(out, ",\"site\":");
    buf_json_string(out, rec->site);
    buf_printf(out, ",\"date\":");
    buf_json_string(out, rec->date);
    buf_printf(out, ",\"round\":");
    buf_json_string(out, rec->round);
    buf_printf(out, ",\"white\":");
    buf_json_string(out, rec->white);
    buf_printf(out, ",\"black\":");
    buf_json_string(out, rec->black);
    buf_printf(out, ",\"result\":\"%s\"},\"comments\":[", rec->intact ? rec->result : "");
    for (int i = 0, first = 1; i <= s->game.nplies; i++) {
        const char *note = rec->imported ? pdn_note(&rec->notes, i) : NULL;
        if (!note)
            continue;
        buf_printf(out, "%s{\"ply\":%d,\"text\":", first ? "" : ",", i);
        buf_json_string(out, note);
        buf_printf(out, "}");
        first = 0;
    }
    buf_printf(out, "],\"side_lines\":[");
    for (int i = 0; i < s->nside; i++) {
        const SideLine *l = &s->side[i];
        buf_printf(out, "%s{\"ply\":%d,\"moves\":[", i ? "," : "", l->ply);
        for (int k = 0; k < l->n; k++) {
            char mv[MOVE_TEXT_MAX];
            notation_move(&l->moves[k], MOVE_FMT_ALG, mv, sizeof mv);
            buf_printf(out, "%s\"%s\"", k ? "," : "", mv);
        }
        buf_printf(out, "]}");
    }
    buf_printf(out, "],\"marks\":[");
    state_marks(s, out);
    buf_printf(out,
               "],\"game_analysis\":{\"running\":%s,\"next\":%d,\"total\":%d,"
               "\"movetime\":%lld",
               s->ga.running ? "true" : "false", s->ga.next, s->game.nplies + 1,
               (long long)s->ga.movetime_ms);
    buf_printf(out, "},\"library\":[");
    for (int i = 0; i < s->nlibrary; i++) {
        const PdnGame *pg = &s->library[i];
        buf_printf(out, "%s{\"white\":", i ? "," : "");
        buf_json_string(out, pg->white);
        buf_printf(out, ",\"black\":");
        buf_json_string(out, pg->black);
        buf_printf(out, ",\"event\":");
        buf_json_string(out, pg->event);
        buf_printf(out, ",\"result\":");
        buf_json_string(out, pg->result);
        buf_printf(out, ",\"plies\":%d}", pg->nmoves);
    }
    buf_printf(out, "]}");
}

void session_publish_state(Session *s)
{
    s->version++;
    Buf b;
    buf_init(&b);
    state_json(s, &b);
    if (!b.failed)
        session_push_event(s, "state", b.data);
    buf_free(&b);
}

void session_state(Session *s, Buf *out)
{
    pthread_mutex_lock(&s->mu);
    state_json(s, out);
    pthread_mutex_unlock(&s->mu);
}

void session_pdn(Session *s, Buf *out)
{
    pthread_mutex_lock(&s->mu);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        char date[16];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
        bool engine_white = s->engine_side == PLAY_WHITE || s->engine_side == PLAY_BOTH;
        bool engine_black = s->engine_side == PLAY_BLACK || s->engine_side == PLAY_BOTH;
        const char *engine = s->engine_name[0] ? s->engine_name : "engine";
        char tc[64];
        if (s->engine_side == PLAY_NONE)
            snprintf(tc, sizeof tc, "-");
        else if (s->clocked)
            snprintf(tc, sizeof tc, "%lld+%g", (long long)(s->base_ms / 1000),
                     (double)s->inc_ms / 1000.0);
        else
            snprintf(tc, sizeof tc, "st=%g", (double)s->movetime_ms / 1000.0);
        const Record *rec = &s->record;
        PdnLine lines[GUI_SIDE_LINES_MAX];
        for (int i = 0; i < s->nside; i++)
            lines[i] = (PdnLine){s->side[i].ply, s->side[i].n, s->side[i].moves};
        PdnTags tags = {rec->imported ? rec->event : "damka-gui",
                        rec->imported ? rec->site : "localhost",
                        rec->imported ? rec->date : date,
                        rec->imported  ? rec->white
                        : engine_white ? engine
                                       : "?",
                        rec->imported  ? rec->black
                        : engine_black ? engine
                                       : "?",
                        tc,
                        1,
                        rec->imported ? rec->round : NULL,
                        rec->intact && s->game.outcome == OUT_NONE ? rec->result : NULL,
                        rec->imported ? &rec->notes : NULL,
                        lines,
                        s->nside};
        pdn_write(f, &tags, &s->game);
        fclose(f);
        buf_printf(out, "%s", text ? text : "");
    }
    free(text);
    pthread_mutex_unlock(&s->mu);
}

static ApiResult ok(void) { return (ApiResult){200, ""}; }

static ApiResult bad(const char *fmt, const char *what)
{
    ApiResult r = {400, ""};
    snprintf(r.error, sizeof r.error, fmt, what);
    return r;
}

// ---- Side lines -------------------------------------------------------------------------------

// Drops the side lines that branch after ply: they hung from moves the main line no longer has.
static void drop_side_lines_after(Session *s, int ply)
{
    int k = 0;
    for (int i = 0; i < s->nside; i++)
        if (s->side[i].ply <= ply)
            s->side[k++] = s->side[i];
    s->nside = k;
}

// The main line's moves from ply on become a side line (the oldest side line makes room).
static void keep_side_line(Session *s, int ply)
{
    drop_side_lines_after(s, ply);
    int n = s->game.nplies - ply;
    if (n <= 0)
        return;
    if (s->nside == GUI_SIDE_LINES_MAX) {
        memmove(&s->side[0], &s->side[1], (GUI_SIDE_LINES_MAX - 1) * sizeof s->side[0]);
        s->nside--;
    }
    SideLine *l = &s->side[s->nside++];
    l->ply = ply;
    l->n = n;
    memcpy(l->moves, &s->game.moves[ply], (size_t)n * sizeof(Move));
}

ApiResult session_side_line(Session *s, const char *index)
{
    int64_t i;
    pthread_mutex_lock(&s->mu);
    ApiResult r = ok();
    if (!util_parse_int(index, 0, s->nside - 1, &i)) {
        r = bad("%s", "index must name one of the state's side_lines");
        pthread_mutex_unlock(&s->mu);
        return r;
    }
    SideLine *chosen = malloc(sizeof *chosen);
    if (!chosen) {
        pthread_mutex_unlock(&s->mu);
        return bad("%s", "out of memory");
    }
    *chosen = s->side[i];
    memmove(&s->side[i], &s->side[i + 1], (size_t)(s->nside - i - 1) * sizeof s->side[0]);
    s->nside--;
    driver_cancel(s);
    session_stop_game_analysis(s);
    Game g;
    session_game_at(s, chosen->ply, &g);
    keep_side_line(s, chosen->ply);
    s->game = g;
    Adjudication none = {0};
    for (int k = 0; k < chosen->n; k++)
        if (game_play(&s->game, &chosen->moves[k], false, 0, &none) != OUT_NONE)
            break;
    for (int k = chosen->ply + 1; k <= MATCH_GAME_PLIES_MAX; k++)
        s->has_score[k] = s->from_book[k] = false;
    s->record.intact = false;
    s->view = chosen->ply + 1;
    s->engine_side = PLAY_NONE;
    free(chosen);
    session_clear_lines(s);
    driver_work(s);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return r;
}

// Replaces the game, shown after `view` plies (-1: at its end). The engine stops playing;
// analysis goes on in the new position.
static void set_game(Session *s, const Board *start, const Move *moves, int n, int view,
                     const PdnGame *from)
{
    memset(&s->record, 0, sizeof s->record);
    s->nside = 0;
    if (from) {
        Record *r = &s->record;
        snprintf(r->event, sizeof r->event, "%s", from->event);
        snprintf(r->site, sizeof r->site, "%s", from->site);
        snprintf(r->round, sizeof r->round, "%s", from->round);
        snprintf(r->date, sizeof r->date, "%s", from->date);
        snprintf(r->white, sizeof r->white, "%s", from->white);
        snprintf(r->black, sizeof r->black, "%s", from->black);
        snprintf(r->result, sizeof r->result, "%s", pdn_result_standard(from->result));
        r->notes = from->notes;
        r->imported = r->intact = true;
    }
    driver_cancel(s);
    session_stop_game_analysis(s);
    Adjudication none = {0};
    game_start(&s->game, start);
    for (int i = 0; i < n; i++)
        if (game_play(&s->game, &moves[i], false, 0, &none) != OUT_NONE)
            break;
    s->view = view >= 0 && view < s->game.nplies ? view : s->game.nplies;
    s->engine_side = PLAY_NONE;
    memset(s->has_score, 0, sizeof s->has_score);
    memset(s->from_book, 0, sizeof s->from_book);
    session_clear_lines(s);
    driver_work(s);
}

ApiResult session_new_game(Session *s, const char *fen)
{
    Board b;
    char err[160];
    if (fen && *fen && !notation_parse_fen(fen, &b, err, sizeof err))
        return bad("bad FEN: %s", err);
    if (!fen || !*fen)
        board_start(&b);
    pthread_mutex_lock(&s->mu);
    set_game(s, &b, NULL, 0, -1, NULL);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return ok();
}

ApiResult session_move(Session *s, const char *text)
{
    if (!text || !*text)
        return bad("%s", "move needs move=<text>");
    pthread_mutex_lock(&s->mu);
    Game g;
    session_game_at(s, s->view, &g);
    Move m;
    char err[160];
    ApiResult r = ok();
    if (g.outcome != OUT_NONE) {
        r = bad("the game is over here: %s", g.reason);
    } else if (session_engine_moves(s)) {
        r = bad("%s", "it is the engine's move");
    } else if (!notation_parse_move(&g.board, text, MOVE_FMT_ALG, &m, err, sizeof err)) {
        r = bad("%s", err);
    } else if (s->view < s->game.nplies && move_same(&m, &s->game.moves[s->view])) {
        s->view++; // the game's own next move: the line is kept
        session_clear_lines(s);
        driver_restart(s);
        session_publish_state(s);
    } else if (s->view >= MATCH_GAME_PLIES_MAX) {
        r = bad("%s", "the game is too long");
    } else {
        bool pondered = s->nqueue > 0 && !s->queue[0].cancelled &&
                        s->queue[0].kind == SEARCH_PONDER && s->view == s->game.nplies &&
                        move_same(&s->queue[0].ponder_move, &m);
        session_stop_game_analysis(s);
        if (s->view < s->game.nplies) { // a new line from the shown position: the rest is
            keep_side_line(s, s->view); // kept as a side line
            s->game = g;
            for (int i = s->view + 1; i <= MATCH_GAME_PLIES_MAX; i++)
                s->has_score[i] = false;
        }
        session_play_move(s, &m);
        session_clear_lines(s);
        if (pondered && session_engine_moves(s)) {
            proc_send(&s->proc, "ponderhit");
            s->ponderhits++;
            s->queue[0].kind = SEARCH_THINK;
            s->queue[0].ply = s->view; // the position it searches is now the game's
            s->queue[0].deadline_ms = now_ms() + driver_budget(s) + HANG_MARGIN_MS;
        } else {
            driver_restart(s);
        }
        session_publish_state(s);
    }
    pthread_mutex_unlock(&s->mu);
    return r;
}

ApiResult session_preview(Session *s, const char *moves, Buf *out)
{
    if (!moves || !*moves)
        return bad("%s", "preview needs moves=<moves from the shown position>");
    pthread_mutex_lock(&s->mu);
    Game g;
    session_game_at(s, s->view, &g);
    pthread_mutex_unlock(&s->mu);
    Board b = g.board;
    char text[GUI_QUERY_MAX + 1], err[160], from[3] = "", to[3] = "";
    snprintf(text, sizeof text, "%s", moves);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        Move m;
        if (!notation_parse_move(&b, t, MOVE_FMT_ALG, &m, err, sizeof err))
            return bad("a move of the line: %s", err);
        notation_square(m.from, from);
        notation_square(m.to, to);
        board_play(&b, &m);
        n++;
    }
    char fen[FEN_MAX];
    notation_fen_algebraic(&b, fen, sizeof fen);
    buf_printf(out, "{\"fen\":");
    buf_json_string(out, fen);
    buf_printf(out, ",\"turn\":\"%s\",\"plies\":%d,\"last\":[\"%s\",\"%s\"],", side_name(b.side), n,
               from, to);
    state_board(&b, out);
    buf_printf(out, "\"ok\":true}");
    return ok();
}

ApiResult session_goto(Session *s, const char *ply)
{
    int64_t v;
    pthread_mutex_lock(&s->mu);
    ApiResult r = ok();
    if (!util_parse_int(ply, 0, s->game.nplies, &v)) {
        r = bad("ply must be 0..%s", "the number of moves played");
    } else {
        s->view = (int)v;
        if (s->engine_side != PLAY_NONE && s->view != s->game.nplies)
            s->engine_side = PLAY_NONE; // stepping back stops play
        session_clear_lines(s);
        driver_restart(s);
        session_publish_state(s);
    }
    pthread_mutex_unlock(&s->mu);
    return r;
}

ApiResult session_takeback(Session *s)
{
    pthread_mutex_lock(&s->mu);
    ApiResult r = ok();
    if (s->game.nplies == 0) {
        r = bad("%s", "no move to take back");
    } else {
        driver_cancel(s);
        session_stop_game_analysis(s);
        s->record.intact = false;
        int keep = s->game.nplies - 1;
        // Against the engine, back to the player's own move.
        if (s->engine_side == PLAY_WHITE || s->engine_side == PLAY_BLACK) {
            Side side = (keep & 1) ? side_flip(s->game.start.side) : s->game.start.side;
            if ((s->engine_side == PLAY_WHITE) == (side == SIDE_WHITE) && keep > 0)
                keep--;
        }
        Game g;
        session_game_at(s, keep, &g);
        s->game = g;
        s->view = keep;
        drop_side_lines_after(s, keep);
        for (int i = keep + 1; i <= MATCH_GAME_PLIES_MAX; i++)
            s->has_score[i] = false;
        s->turn_start_ms = now_ms();
        session_clear_lines(s);
        driver_work(s);
        session_publish_state(s);
    }
    pthread_mutex_unlock(&s->mu);
    return r;
}

ApiResult session_play(Session *s, const char *side, const char *base, const char *inc,
                       const char *movetime, const char *ponder, const char *level)
{
    static const char *const SIDES[] = {"none", "white", "black", "both"};
    int who = -1;
    for (int i = 0; i < 4; i++)
        if (side && strcmp(side, SIDES[i]) == 0)
            who = i;
    int64_t base_ms = DEFAULT_BASE_MS, inc_ms = DEFAULT_INC_MS, move_ms = 0;
    if (who < 0)
        return bad("%s", "side must be none, white, black or both (the engine's side)");
    if (movetime && *movetime) {
        if (!util_parse_seconds(movetime, 0.01, 3600, &move_ms))
            return bad("%s", "movetime must be 0.01..3600 seconds");
    } else if ((base && !util_parse_seconds(base, 1, 36000, &base_ms)) ||
               (inc && !util_parse_seconds(inc, 0, 600, &inc_ms))) {
        return bad("%s", "base must be 1..36000 s and inc 0..600 s");
    }
    bool pond = ponder && strcmp(ponder, "true") == 0;
    if (ponder && !pond && strcmp(ponder, "false") != 0)
        return bad("%s", "ponder must be true or false");
    int64_t lv = SKILL_FULL;
    if (level && *level && !util_parse_int(level, 0, SKILL_FULL, &lv))
        return bad("%s", "level must be 0..20 (20: full strength)"); // SKILL_FULL
    pthread_mutex_lock(&s->mu);
    driver_cancel(s);
    session_stop_game_analysis(s);
    // Play goes on from the shown position.
    if (s->view != s->game.nplies) {
        Game g;
        session_game_at(s, s->view, &g);
        s->game = g;
    }
    s->engine_side = (PlaySide)who;
    s->movetime_ms = move_ms;
    s->clocked = move_ms == 0;
    s->base_ms = base_ms;
    s->inc_ms = inc_ms;
    s->clock_ms[0] = s->clock_ms[1] = base_ms;
    s->turn_start_ms = now_ms();
    if (s->ponder != pond && s->engine_up)
        proc_send(&s->proc, "setoption name Ponder value %s", pond ? "true" : "false");
    s->ponder = pond;
    if (s->level != lv && s->engine_up)
        proc_send(&s->proc, "setoption name Skill Level value %d", (int)lv);
    s->level = (int)lv;
    s->analysing = false;
    session_clear_lines(s);
    driver_work(s);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return ok();
}

ApiResult session_analyse(Session *s, const char *on)
{
    if (!on || (strcmp(on, "true") != 0 && strcmp(on, "false") != 0))
        return bad("%s", "on must be true or false");
    pthread_mutex_lock(&s->mu);
    s->analysing = on[0] == 't';
    if (s->analysing) {
        s->engine_side = PLAY_NONE; // analysis and play share the engine
        session_stop_game_analysis(s);
    }
    session_clear_lines(s);
    driver_restart(s);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return ok();
}

ApiResult session_analyse_game(Session *s, const char *on, const char *movetime)
{
    int64_t ms = DEFAULT_GAME_MOVE_MS;
    if (!on || (strcmp(on, "true") != 0 && strcmp(on, "false") != 0))
        return bad("%s", "on must be true or false");
    if (movetime && *movetime && !util_parse_seconds(movetime, 0.05, 600, &ms))
        return bad("%s", "movetime must be 0.05..600 seconds");
    pthread_mutex_lock(&s->mu);
    ApiResult r = ok();
    if (on[0] == 'f') {
        driver_cancel(s);
        session_stop_game_analysis(s);
    } else if (!s->engine_up) {
        r = bad("%s", "no engine is running");
    } else {
        driver_cancel(s);
        s->engine_side = PLAY_NONE;
        s->analysing = false;
        session_clear_lines(s);
        memset(s->has_score, 0, sizeof s->has_score);
        s->ga = (GameAnalysis){.running = true, .next = 0, .movetime_ms = ms};
        proc_send(&s->proc, "setoption name UCI_AnalyseMode value true"); // no book moves
        driver_work(s);
    }
    if (r.status == 200)
        session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return r;
}

ApiResult session_options(Session *s, const char *hash, const char *threads, const char *multipv)
{
    int64_t h = -1, t = -1, m = -1;
    if (hash && !util_parse_int(hash, 1, 65536, &h))
        return bad("%s", "hash must be 1..65536 MB");
    if (threads && !util_parse_int(threads, 1, 256, &t))
        return bad("%s", "threads must be 1..256");
    if (multipv && !util_parse_int(multipv, 1, GUI_LINES_MAX, &m))
        return bad("multipv must be 1..%s", "8");
    pthread_mutex_lock(&s->mu);
    driver_cancel(s);
    if (h > 0)
        s->hash_mb = (int)h;
    if (t > 0)
        s->threads = (int)t;
    if (m > 0)
        s->multipv = (int)m;
    if (s->engine_up) {
        proc_send(&s->proc, "setoption name Hash value %d", s->hash_mb);
        proc_send(&s->proc, "setoption name Threads value %d", s->threads);
        proc_send(&s->proc, "setoption name MultiPV value %d", s->multipv);
    }
    session_clear_lines(s);
    driver_work(s);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return ok();
}

ApiResult session_import_pdn(Session *s, const char *text, size_t len)
{
    if (strlen(text) != len)
        return bad("%s", "the PDN holds a NUL byte");
    PdnGame *lib = malloc(GUI_LIBRARY_MAX * sizeof *lib);
    if (!lib)
        return (ApiResult){500, "out of memory"};
    int n = 0;
    size_t pos = 0;
    char err[160], first_err[200] = "";
    int r;
    while (n < GUI_LIBRARY_MAX && (r = pdn_read(text, &pos, &lib[n], err, sizeof err)) != 0) {
        if (r > 0)
            n++;
        else if (!first_err[0])
            snprintf(first_err, sizeof first_err, "game %d: %s", n + 1, err);
    }
    if (n == 0) {
        free(lib);
        return bad("no game could be read: %s", first_err[0] ? first_err : "the text is empty");
    }
    pthread_mutex_lock(&s->mu);
    free(s->library);
    s->library = lib;
    s->nlibrary = n;
    set_game(s, &lib[0].start, lib[0].moves, lib[0].nmoves, 0, &lib[0]);
    snprintf(s->engine_status, sizeof s->engine_status, "%.150s", first_err);
    session_publish_state(s);
    pthread_mutex_unlock(&s->mu);
    return ok();
}

ApiResult session_load(Session *s, const char *index)
{
    int64_t i;
    pthread_mutex_lock(&s->mu);
    ApiResult r = ok();
    if (!util_parse_int(index, 0, s->nlibrary - 1, &i)) {
        r = bad("%s", "index must name a game of the imported PDN");
    } else {
        const PdnGame *g = &s->library[i];
        set_game(s, &g->start, g->moves, g->nmoves, 0, g);
        session_publish_state(s);
    }
    pthread_mutex_unlock(&s->mu);
    return r;
}

// ---- Life -------------------------------------------------------------------------------------

Session *session_new(const char *engine_cmd, const char *book, char *err, size_t errlen)
{
    char path[4096];
    Book *opened = NULL;
    if (book && strcmp(book, "none") != 0) {
        char why[BOOK_ERR_MAX];
        if (!(opened = book_open(book, why, sizeof why))) {
            snprintf(err, errlen, "%s", why);
            return NULL;
        }
    } else if (!book && engine_find_data(ENGINE_BOOK_NAME, path, sizeof path)) {
        char why[BOOK_ERR_MAX];
        opened = book_open(path, why, sizeof why); // refused: the engine says why on stderr
    }
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        book_close(opened);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->book = opened;
    snprintf(s->book_option, sizeof s->book_option, "%s", book ? book : "");
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->changed, NULL);
    snprintf(s->cmd, sizeof s->cmd, "%s", engine_cmd);
    s->hash_mb = 64;
    s->threads = 1;
    s->multipv = 1;
    s->movetime_ms = DEFAULT_MOVE_MS;
    s->level = SKILL_FULL;
    s->base_ms = DEFAULT_BASE_MS;
    s->inc_ms = DEFAULT_INC_MS;
    Board b;
    board_start(&b);
    game_start(&s->game, &b);
    // A newcomer's first game: the engine has Black at a second a move (the human has no clock)
    // and replies as soon as White has moved. The reader thread starts the engine: the server
    // listens at once, whatever the engine does.
    s->engine_side = PLAY_BLACK;
    snprintf(s->engine_status, sizeof s->engine_status, "starting");
    if (pthread_create(&s->reader, NULL, driver_reader, s) != 0) {
        book_close(s->book);
        free(s);
        snprintf(err, errlen, "cannot start a thread");
        return NULL;
    }
    return s;
}

void session_shutdown(Session *s)
{
    pthread_mutex_lock(&s->mu);
    s->quit = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->mu);
}

void session_free(Session *s)
{
    session_shutdown(s);
    pthread_join(s->reader, NULL);
    if (s->engine_up || s->proc.started)
        proc_stop(&s->proc, "quit");
    for (int i = 0; i < GUI_EVENTS; i++)
        free(s->events[i]);
    book_close(s->book);
    free(s->library);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->changed);
    free(s);
}
