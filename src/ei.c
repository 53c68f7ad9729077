// SPDX-License-Identifier: MIT
// Owns the Kallisto interface (ei.h): its position and move texts, its clock, its callback, and
// the engine's game it keeps. A front end on the facade like the text dialects; it never prints.
#include "ei.h"

#include <stdio.h>
#include <string.h>

#include "notation.h"

enum { DEFAULT_MOVE_MS = 1000 }; // a move's time before the host gives a clock

static EI_SearchInfo g_info;     // the host's callback (NULL: none)
static int64_t g_inc_ms;         // increment of EI_SetTimeControl
static int64_t g_time_ms = -1;   // the engine's clock of EI_SetTime (-1: not given)
static char g_move[EI_MOVE_MAX]; // what EI_Think returned (the host reads it after the call)
static char g_pv[EI_PV_MAX], g_cm[EI_MOVE_MAX];

// A move in the interface's text: "c3d4", or origin, taken squares in order, destination.
static void move_text(const Move *m, char *out, size_t len)
{
    if (!m->captured) {
        notation_move(m, MOVE_FMT_UCI, out, len);
        return;
    }
    Square taken[MAX_PATH];
    int n = notation_taken_in_order(m, taken);
    char sq[3];
    size_t used = 0;
    notation_square(m->from, sq);
    used += (size_t)snprintf(out + used, len - used, "%s", sq);
    for (int i = 0; i < n && used < len; i++) {
        notation_square(taken[i], sq);
        used += (size_t)snprintf(out + used, len - used, ":%s", sq);
    }
    notation_square(m->to, sq);
    if (used < len)
        snprintf(out + used, len - used, ":%s", sq);
}

// The legal move of the engine's position that text names (either form); false if none.
static bool parse_move(Engine *e, const char *text, Move *out)
{
    char err[ENGINE_ERR_MAX];
    if (!strchr(text, ':'))
        return engine_parse_move(e, text, MOVE_FMT_ALG, out, err, sizeof err);
    // From, taken squares, destination: as the Hub form (from x to x taken ...) reads them.
    char buf[EI_MOVE_MAX], hub[EI_MOVE_MAX * 2];
    snprintf(buf, sizeof buf, "%s", text);
    Square sq[MAX_PATH + 2];
    int n = 0;
    for (char *t = strtok(buf, ":"); t; t = strtok(NULL, ":")) {
        if (n == MAX_PATH + 2 || (sq[n] = notation_square_of(t)) < 0)
            return false;
        n++;
    }
    if (n < 3)
        return false;
    size_t used = (size_t)snprintf(hub, sizeof hub, "%dx%d", sq[0] + 1, sq[n - 1] + 1);
    for (int i = 1; i < n - 1 && used < sizeof hub; i++)
        used += (size_t)snprintf(hub + used, sizeof hub - used, "x%d", sq[i] + 1);
    return engine_parse_move(e, hub, MOVE_FMT_HUB, out, err, sizeof err);
}

// A score on the interface's scale (see ei.h).
static int ei_score(Score s)
{
    int plies = engine_win_plies(s), db = engine_egdb_score(s);
    if (plies)
        return plies > 0 ? EI_SCORE_WIN - plies : -(EI_SCORE_WIN + plies);
    if (db)
        return db > 0 ? EI_SCORE_DB_WIN - (100 - db) : -(EI_SCORE_DB_WIN - (100 + db));
    return s;
}

static void on_info(void *ctx, const EngineInfo *r)
{
    (void)ctx;
    if (!g_info)
        return;
    size_t used = 0;
    g_pv[0] = g_cm[0] = '\0';
    for (int i = 0; i < r->pvlen && used + EI_MOVE_MAX + 1 < sizeof g_pv; i++) {
        char m[EI_MOVE_MAX];
        move_text(&r->pv[i], m, sizeof m);
        used += (size_t)snprintf(g_pv + used, sizeof g_pv - used, "%s%s", i ? " " : "", m);
        if (i == 0)
            snprintf(g_cm, sizeof g_cm, "%s", m);
    }
    int64_t nps =
        r->time_ms > 0 ? (int64_t)(r->nodes * 1000 / (uint64_t)r->time_ms) : (int64_t)r->nodes;
    g_info(ei_score(r->score), r->depth, nps > INT32_MAX ? INT32_MAX : (int)nps, g_pv, g_cm);
}

void PLUGIN_CALL EI_Initialization(EI_SearchInfo si, int mem_lim)
{
    g_info = si;
    Engine *e = plugin_engine();
    if (e && mem_lim >= ENGINE_HASH_MIN)
        engine_set_hash(e, mem_lim < ENGINE_HASH_MAX ? mem_lim : ENGINE_HASH_MAX);
}

void PLUGIN_CALL EI_NewGame(void)
{
    Engine *e = plugin_engine();
    if (e)
        engine_new_game(e);
    g_time_ms = -1;
}

void PLUGIN_CALL EI_SetupBoard(char *pos)
{
    Engine *e = plugin_engine();
    if (!e || !pos || strlen(pos) != EI_POSITION_LEN)
        return;
    // The Hub position string: side first, then the same squares with 'e' for empty.
    char hub[HUB_POS_LEN + 1], err[ENGINE_ERR_MAX];
    char side = pos[EI_POSITION_LEN - 1];
    if (side != 'w' && side != 'b')
        return;
    hub[0] = side == 'w' ? 'W' : 'B';
    for (int i = 0; i < SQUARE_COUNT; i++)
        hub[i + 1] = pos[i] == '.' ? 'e' : pos[i];
    hub[HUB_POS_LEN] = '\0';
    engine_set_hub_position(e, hub, NULL, 0, MOVE_FMT_HUB, err, sizeof err);
}

void PLUGIN_CALL EI_MakeMove(char *move)
{
    Engine *e = plugin_engine();
    Move m;
    if (e && move && strlen(move) < EI_MOVE_MAX && parse_move(e, move, &m))
        engine_play(e, &m);
}

// The limits of a move: the clock the host gave, else a fixed time.
static EngineGo move_limits(void)
{
    EngineGo go;
    engine_go_depth(&go, 0);
    go.analysis = false;
    go.time = g_time_ms >= 0 ? engine_uci_clock(true, g_time_ms, g_inc_ms, 0, 0)
                             : engine_uci_clock(false, 0, 0, 0, DEFAULT_MOVE_MS);
    return go;
}

char *PLUGIN_CALL EI_Think(void)
{
    Engine *e = plugin_engine();
    EngineGo go = move_limits();
    EngineResult r;
    g_move[0] = '\0';
    if (e && plugin_search(&go, on_info, NULL, NULL, &r)) {
        move_text(&r.best, g_move, sizeof g_move);
        engine_play(e, &r.best);
    }
    return g_move;
}

void PLUGIN_CALL EI_Ponder(void)
{
    EngineGo go;
    engine_go_depth(&go, 0);
    go.infinite = true; // until EI_PonderHit or EI_Stop
    plugin_search_background(&go, on_info, NULL);
}

char *PLUGIN_CALL EI_PonderHit(char *move)
{
    plugin_stop(); // what the ponder search found stays in the table
    EI_MakeMove(move);
    return EI_Think();
}

void PLUGIN_CALL EI_Analyse(void)
{
    EngineGo go;
    engine_go_depth(&go, 0);
    go.infinite = true; // until EI_Stop
    EngineResult r;
    plugin_search(&go, on_info, NULL, NULL, &r);
}

void PLUGIN_CALL EI_Stop(void) { plugin_stop(); }

void PLUGIN_CALL EI_SetTimeControl(int time, int inc)
{
    (void)time; // the whole game's minutes: EI_SetTime gives what is left before each move
    g_inc_ms = inc > 0 ? inc : 0;
}

void PLUGIN_CALL EI_SetTime(int time, int otime)
{
    (void)otime;
    g_time_ms = time > 0 ? time : 0;
}

char *PLUGIN_CALL EI_GetName(void)
{
    static char name[] = DAMKA_NAME " " DAMKA_VERSION;
    return name;
}

void PLUGIN_CALL EI_OnExit(void) { plugin_free(); }

void PLUGIN_CALL EI_EGDB(void *eda) { (void)eda; }
