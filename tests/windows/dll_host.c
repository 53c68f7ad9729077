// SPDX-License-Identifier: MIT
// The Windows test host (make test-windows, run under Wine): loads damka.dll with LoadLibrary
// and GetProcAddress as CheckerBoard, the Kallisto GUI and pydraughts do, and plays whole games:
// the CheckerBoard interface against itself and against damka.exe (the text engine, over
// pipes), the Kallisto interface against itself. A referee (Damka's rules, linked in) checks
// every move; the host checks the time of every CheckerBoard move against maxtime, and how soon
// *playnow and EI_Stop are answered. Prints one line per game and a summary; exits 1 on a fault.
// Usage: dll_host.exe DLL EXE [GAMES]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb.h"
#include "ei.h"
#include "engine.h"
#include "notation.h"

// After the engine's headers: windows.h defines a MAX_PATH of its own (260), which is at least
// the engine's (the landings of a capture) wherever this file uses it.
#include <windows.h>

typedef int(PLUGIN_CALL *GetMoveFn)(int[8][8], int, double, char *, int *, int, int, CBmove *);
typedef int(PLUGIN_CALL *CommandFn)(char *, char *);
typedef void(PLUGIN_CALL *InitFn)(EI_SearchInfo, int);
typedef void(PLUGIN_CALL *VoidFn)(void);
typedef char *(PLUGIN_CALL *ThinkFn)(void);
typedef void(PLUGIN_CALL *TimeFn)(int, int);
typedef void(PLUGIN_CALL *MoveFn)(char *);

enum { PLIES_MAX = 300, MAXTIME_MS = 100 };
static const double MAXTIME = MAXTIME_MS / 1000.0;

static GetMoveFn cb_getmove;
static CommandFn cb_command;
static InitFn ei_init;
static VoidFn ei_newgame, ei_stop, ei_analyse;
static ThinkFn ei_think;
static TimeFn ei_settime, ei_timecontrol;
static MoveFn ei_setupboard;
static int faults, slow_moves;
static double worst_ratio;

static double now_ms(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart * 1000.0 / (double)f.QuadPart;
}

static void fault(const char *what, const char *detail)
{
    printf("FAULT: %s %s\n", what, detail ? detail : "");
    faults++;
}

// ---- Boards in CheckerBoard's terms (cb.h: a1 at x = 7, y = 7) ---------------------------

static void to_cb(const Board *b, int board[8][8])
{
    char pos[HUB_POS_LEN + 1];
    notation_hub_pos(b, pos, sizeof pos);
    memset(board, 0, 8 * sizeof board[0]);
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        char name[3];
        notation_square(s, name);
        int v = pos[s + 1] == 'w'   ? CB_WHITE | CB_MAN
                : pos[s + 1] == 'b' ? CB_BLACK | CB_MAN
                : pos[s + 1] == 'W' ? CB_WHITE | CB_KING
                : pos[s + 1] == 'B' ? CB_BLACK | CB_KING
                                    : CB_FREE;
        board[7 - (name[0] - 'a')][7 - (name[1] - '1')] = v;
    }
}

// The referee's legal move that turns its position into `board`; false if none does.
static bool move_to(Engine *ref, int board[8][8], Move *out)
{
    MoveList list;
    int n = engine_legal_moves(ref, &list);
    for (int i = 0; i < n; i++) {
        Board child;
        int cb[8][8];
        engine_board_after(engine_board(ref), &list.moves[i], &child);
        to_cb(&child, cb);
        if (memcmp(cb, board, sizeof cb) == 0) {
            *out = list.moves[i];
            return true;
        }
    }
    return false;
}

// ---- damka.exe over pipes ------------------------------------------------------------------

typedef struct Text {
    HANDLE in, out; // our ends: we write to in, read from out
    PROCESS_INFORMATION pi;
} Text;

static bool text_start(Text *t, const char *exe)
{
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE child_in, child_out;
    if (!CreatePipe(&child_in, &t->in, &sa, 0) || !CreatePipe(&t->out, &child_out, &sa, 0))
        return false;
    SetHandleInformation(t->in, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(t->out, HANDLE_FLAG_INHERIT, 0);
    STARTUPINFOA si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = child_in;
    si.hStdOutput = child_out;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    char cmd[MAX_PATH + 8];
    snprintf(cmd, sizeof cmd, "\"%s\"", exe);
    bool ok = CreateProcessA(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &t->pi);
    CloseHandle(child_in);
    CloseHandle(child_out);
    return ok;
}

static void text_send(Text *t, const char *line)
{
    DWORD n;
    WriteFile(t->in, line, (DWORD)strlen(line), &n, NULL);
    WriteFile(t->in, "\n", 1, &n, NULL);
}

// Reads lines until one starts with prefix (copied to out); false at the end of the output.
static bool text_wait(Text *t, const char *prefix, char *out, size_t len)
{
    size_t n = 0;
    for (;;) {
        char c;
        DWORD got = 0;
        if (!ReadFile(t->out, &c, 1, &got, NULL) || got == 0)
            return false;
        if (c == '\r')
            continue;
        if (c != '\n') {
            if (n + 1 < len)
                out[n++] = c;
            continue;
        }
        out[n] = '\0';
        if (strncmp(out, prefix, strlen(prefix)) == 0)
            return true;
        n = 0;
    }
}

static void text_stop(Text *t)
{
    text_send(t, "quit");
    WaitForSingleObject(t->pi.hProcess, 5000);
    CloseHandle(t->pi.hProcess);
    CloseHandle(t->pi.hThread);
    CloseHandle(t->in);
    CloseHandle(t->out);
}

// ---- Games ---------------------------------------------------------------------------------

// A game kept by the referee, with its moves as text for the text engine.
typedef struct Game {
    Engine *ref;
    char moves[1 << 15];
    size_t used;
} Game;

static bool play(Game *g, const Move *m)
{
    char text[MOVE_TEXT_MAX];
    notation_move(m, MOVE_FMT_UCI, text, sizeof text);
    if (g->used + strlen(text) + 2 >= sizeof g->moves || !engine_play(g->ref, m))
        return false;
    g->used += (size_t)snprintf(g->moves + g->used, sizeof g->moves - g->used, "%s%s",
                                g->used ? " " : "", text);
    return true;
}

// The DLL's CheckerBoard move (timed against maxtime).
static bool dll_move(Game *g, bool first)
{
    int board[8][8], playnow = 0;
    char str[CB_REPLY_MAX];
    CBmove m;
    to_cb(engine_board(g->ref), board);
    int color = engine_board(g->ref)->side == SIDE_WHITE ? CB_WHITE : CB_BLACK;
    double t0 = now_ms();
    cb_getmove(board, color, MAXTIME, str, &playnow, first ? CB_RESET_MOVES : 0, 0, &m);
    double took = now_ms() - t0;
    if (took / MAXTIME_MS > worst_ratio)
        worst_ratio = took / MAXTIME_MS;
    if (took > MAXTIME_MS * 1.1)
        slow_moves++;
    Move played;
    if (!move_to(g->ref, board, &played)) {
        fault("getmove returned no legal move:", str);
        return false;
    }
    return play(g, &played);
}

// The text engine's move (go movetime 100).
static bool text_move(Game *g, Text *t)
{
    static char line[1 << 16], cmd[1 << 16];
    snprintf(cmd, sizeof cmd, "position startpos moves %s", g->moves);
    text_send(t, cmd);
    text_send(t, "go movetime 100");
    if (!text_wait(t, "bestmove ", line, sizeof line)) {
        fault("damka.exe ended", NULL);
        return false;
    }
    char *sp = strchr(line + 9, ' ');
    if (sp)
        *sp = '\0';
    Move m;
    char err[128];
    if (!engine_parse_move(g->ref, line + 9, MOVE_FMT_ALG, &m, err, sizeof err)) {
        fault("damka.exe moved illegally:", line);
        return false;
    }
    return play(g, &m);
}

// The Kallisto interface's move (EI_Think with a clock of 2 s + 0.1 s a move).
static bool ei_move(Game *g)
{
    ei_settime(2000, 2000);
    const char *text = ei_think();
    // EI_Think plays the move in the DLL's game: the referee finds it by its position.
    Move m;
    char err[128];
    if (!text[0] || !engine_parse_move(g->ref, text, MOVE_FMT_ALG, &m, err, sizeof err)) {
        // captures come as origin:taken...:destination, which the referee reads by landing
        // squares only; find the move by its origin, destination and taken squares instead
        MoveList list;
        int n = engine_legal_moves(g->ref, &list), found = -1;
        for (int i = 0; i < n && found < 0; i++) {
            char mine[MOVE_TEXT_MAX * 2], sq[3];
            Square taken[MAX_PATH];
            int k = notation_taken_in_order(&list.moves[i], taken);
            notation_square(list.moves[i].from, sq);
            size_t u = (size_t)snprintf(mine, sizeof mine, "%s", sq);
            for (int j = 0; j < k; j++) {
                notation_square(taken[j], sq);
                u += (size_t)snprintf(mine + u, sizeof mine - u, ":%s", sq);
            }
            notation_square(list.moves[i].to, sq);
            snprintf(mine + u, sizeof mine - u, ":%s", sq);
            if (k > 0 && strcmp(mine, text) == 0)
                found = i;
        }
        if (found < 0) {
            fault("EI_Think returned no legal move:", text);
            return false;
        }
        m = list.moves[found];
    }
    return play(g, &m);
}

typedef enum Kind { CB_SELF, CB_VS_TEXT_WHITE, CB_VS_TEXT_BLACK, EI_SELF } Kind;

// One game from the start; returns its result (GAME_ONGOING after a fault or PLIES_MAX).
static GameResult game(Kind kind, Text *t)
{
    static Game g;
    g.ref = engine_new();
    g.used = 0;
    g.moves[0] = '\0';
    if (kind == EI_SELF) {
        ei_newgame();
        ei_timecontrol(1, 100);
    }
    bool ok = true;
    for (int ply = 0; ok && ply < PLIES_MAX && engine_game_result(g.ref) == GAME_ONGOING; ply++) {
        bool white = engine_board(g.ref)->side == SIDE_WHITE;
        if (kind == EI_SELF)
            ok = ei_move(&g);
        else if (kind == CB_SELF || white == (kind == CB_VS_TEXT_WHITE))
            ok = dll_move(&g, ply < 2);
        else
            ok = text_move(&g, t);
    }
    GameResult r = ok ? engine_game_result(g.ref) : GAME_ONGOING;
    engine_free(g.ref);
    return r;
}

// Latency of *playnow during a 30-second getmove, and of EI_Stop during EI_Analyse.
typedef struct Later {
    volatile int *flag;
    volatile double set_at;
} Later;

static DWORD WINAPI set_flag(LPVOID arg)
{
    Later *l = arg;
    Sleep(300);
    l->set_at = now_ms();
    *l->flag = 1;
    return 0;
}

static DWORD WINAPI stop_later(LPVOID arg)
{
    Later *l = arg;
    Sleep(300);
    l->set_at = now_ms();
    ei_stop();
    return 0;
}

static double playnow_latency(void)
{
    Board start;
    char err[128];
    notation_parse_fen("W:W21-32:B1-12", &start, err, sizeof err);
    int board[8][8];
    to_cb(&start, board);
    volatile int playnow = 0;
    Later l = {&playnow, 0};
    HANDLE th = CreateThread(NULL, 0, set_flag, &l, 0, NULL);
    char str[CB_REPLY_MAX];
    CBmove m;
    // The start position is in the opening book (beside the DLL after make windows): without
    // the book, getmove searches until *playnow is set.
    char cmd[CB_COMMAND_MAX] = "set book 0", reply[CB_REPLY_MAX];
    cb_command(cmd, reply);
    cb_getmove(board, CB_WHITE, 30.0, str, (int *)&playnow, CB_RESET_MOVES, 0, &m);
    double done = now_ms(), set_at = l.set_at;
    WaitForSingleObject(th, INFINITE);
    CloseHandle(th);
    if (set_at == 0) {
        fault("getmove returned before playnow was set:", str);
        return 0;
    }
    return done - set_at;
}

static double stop_latency(void)
{
    Later l = {NULL, 0};
    ei_newgame();
    HANDLE th = CreateThread(NULL, 0, stop_later, &l, 0, NULL);
    ei_analyse();
    double done = now_ms(), set_at = l.set_at;
    WaitForSingleObject(th, INFINITE);
    CloseHandle(th);
    if (set_at == 0) {
        fault("EI_Analyse returned before EI_Stop was called", NULL);
        return 0;
    }
    return done - set_at;
}

#define LOAD(var, type, name)                                                                      \
    if (!(var = (type)(void (*)(void))GetProcAddress(dll, name)))                                  \
        fault("missing export", name);

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: dll_host DLL EXE [GAMES]\n");
        return 2;
    }
    int games = argc > 3 ? atoi(argv[3]) : 20;
    engine_library_init();
    HMODULE dll = LoadLibraryA(argv[1]);
    if (!dll) {
        printf("FAULT: LoadLibrary %s failed (%lu)\n", argv[1], (unsigned long)GetLastError());
        return 1;
    }
    LOAD(cb_getmove, GetMoveFn, "getmove")
    LOAD(cb_command, CommandFn, "enginecommand")
    LOAD(ei_init, InitFn, "EI_Initialization")
    LOAD(ei_newgame, VoidFn, "EI_NewGame")
    LOAD(ei_stop, VoidFn, "EI_Stop")
    LOAD(ei_analyse, VoidFn, "EI_Analyse")
    LOAD(ei_think, ThinkFn, "EI_Think")
    LOAD(ei_settime, TimeFn, "EI_SetTime")
    LOAD(ei_timecontrol, TimeFn, "EI_SetTimeControl")
    LOAD(ei_setupboard, MoveFn, "EI_SetupBoard")
    if (faults)
        return 1;
    char cmd[CB_COMMAND_MAX] = "set gametype 25", reply[CB_REPLY_MAX];
    if (cb_command(cmd, reply) != 1)
        fault("set gametype 25 refused:", reply);
    snprintf(cmd, sizeof cmd, "name");
    cb_command(cmd, reply);
    printf("engine: %s\n", reply);
    ei_init(NULL, 64);
    Text t;
    if (!text_start(&t, argv[2])) {
        printf("FAULT: cannot start %s\n", argv[2]);
        return 1;
    }
    static const char *const KINDS[] = {"checkerboard self-play",
                                        "checkerboard (white) vs damka.exe",
                                        "checkerboard (black) vs damka.exe", "kallisto self-play"};
    int ended = 0;
    for (int i = 0; i < games; i++) {
        Kind kind = (Kind)(i % 4);
        double t0 = now_ms();
        GameResult r = game(kind, &t);
        ended += r != GAME_ONGOING;
        printf("game %2d, %s: %s (%.1f s)\n", i + 1, KINDS[kind],
               r == GAME_ONGOING ? "no result" : engine_result_text(r), (now_ms() - t0) / 1000);
        fflush(stdout);
    }
    text_stop(&t);
    double pn = playnow_latency(), st = stop_latency();
    printf("games ended by the rules: %d of %d; checkerboard moves over maxtime + 10%%: %d "
           "(slowest %.2fx of %d ms)\n",
           ended, games, slow_moves, worst_ratio, MAXTIME_MS);
    printf("playnow answered in %.1f ms; EI_Stop in %.1f ms\n", pn, st);
    if (ended != games)
        fault("games without a result", NULL);
    if (slow_moves)
        fault("moves over maxtime + 10%", NULL);
    if (pn > 100 || st > 100)
        fault("playnow or EI_Stop slower than 100 ms", NULL);
    printf("%s\n", faults ? "FAILED" : "ok");
    return faults ? 1 : 0;
}
