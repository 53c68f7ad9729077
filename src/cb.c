// SPDX-License-Identifier: MIT
// Owns the CheckerBoard interface (cb.h): boards and moves in CheckerBoard's terms, the game's
// history rebuilt from the boards the GUI sends, the time it gives, and its commands. A front
// end on the facade like the text dialects; it never prints.
#include "cb.h"

#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "util.h"

enum { GAMEHIST_MAX = CB_COMMAND_MAX / 2 }; // tokens of a gamehist command (256 characters)

// The engine's game is the GUI's only while this interface set it; a new game otherwise.
static bool g_game_known;

// CheckerBoard's coordinates of square s (0 = b8): a1 is (7, 7), h8 (0, 0).
static CBcoor coor_of(Square s)
{
    char name[3];
    notation_square(s, name);
    return (CBcoor){7 - (name[0] - 'a'), 7 - (name[1] - '1')};
}

static int cb_piece(char hub)
{
    switch (hub) {
    case 'w':
        return CB_WHITE | CB_MAN;
    case 'b':
        return CB_BLACK | CB_MAN;
    case 'W':
        return CB_WHITE | CB_KING;
    case 'B':
        return CB_BLACK | CB_KING;
    default:
        return CB_FREE;
    }
}

// The Hub position string (side, then squares 1..32) of a CheckerBoard board; false when a
// square holds something that is no piece or color is neither side.
static bool hub_of_board(int board[8][8], int color, char pos[HUB_POS_LEN + 1])
{
    if (color != CB_WHITE && color != CB_BLACK)
        return false;
    pos[0] = color == CB_WHITE ? 'W' : 'B';
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        CBcoor c = coor_of(s);
        int v = board[c.x][c.y];
        static const char CHARS[] = "ewbWB";
        int i = v == CB_FREE                ? 0
                : v == (CB_WHITE | CB_MAN)  ? 1
                : v == (CB_BLACK | CB_MAN)  ? 2
                : v == (CB_WHITE | CB_KING) ? 3
                : v == (CB_BLACK | CB_KING) ? 4
                                            : -1;
        if (i < 0)
            return false;
        pos[s + 1] = CHARS[i];
    }
    pos[HUB_POS_LEN] = '\0';
    return true;
}

static void board_of(const Board *b, int board[8][8])
{
    char pos[HUB_POS_LEN + 1];
    notation_hub_pos(b, pos, sizeof pos);
    memset(board, 0, 8 * sizeof board[0]);
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        CBcoor c = coor_of(s);
        board[c.x][c.y] = cb_piece(pos[s + 1]);
    }
}

static int piece_on(const Board *b, Square s)
{
    char pos[HUB_POS_LEN + 1];
    notation_hub_pos(b, pos, sizeof pos);
    return cb_piece(pos[s + 1]);
}

static void describe(const Board *before, const Move *m, CBmove *out)
{
    Board after;
    engine_board_after(before, m, &after);
    memset(out, 0, sizeof *out);
    out->jumps = __builtin_popcountll(m->captured);
    out->oldpiece = piece_on(before, m->from);
    out->newpiece = piece_on(&after, m->to);
    out->from = coor_of(m->from);
    out->to = coor_of(m->to);
    out->path[0] = out->from;
    for (int i = 1; i < m->npath && i < CB_PATH_MAX; i++) // the landings before the last
        out->path[i] = coor_of(m->path[i - 1]);
    Square taken[MAX_PATH];
    int n = notation_taken_in_order(m, taken);
    for (int i = 0; i < n && i < CB_PATH_MAX; i++) {
        out->del[i] = coor_of(taken[i]);
        out->delpiece[i] = piece_on(before, taken[i]);
    }
}

// The engine's game made the GUI's: the board it sends is the current position (nothing
// played since), or the current position after one legal move of the opponent (appended, so
// that repetition and the 7.2 counters see the whole game), or else a new game from it.
static bool follow_game(Engine *e, const char *pos, bool reset)
{
    char now[HUB_POS_LEN + 1], err[ENGINE_ERR_MAX];
    if (!reset && g_game_known) {
        notation_hub_pos(engine_board(e), now, sizeof now);
        if (strcmp(now, pos) == 0)
            return true;
        MoveList list;
        int n = engine_legal_moves(e, &list);
        for (int i = 0; i < n; i++) {
            Board child;
            engine_board_after(engine_board(e), &list.moves[i], &child);
            notation_hub_pos(&child, now, sizeof now);
            if (strcmp(now, pos) == 0 && engine_play(e, &list.moves[i]))
                return true;
        }
    }
    g_game_known = engine_set_hub_position(e, pos, NULL, 0, MOVE_FMT_HUB, err, sizeof err);
    return g_game_known;
}

// The search limits of getmove's time arguments.
static EngineGo time_limits(double maxtime, int info, int moreinfo)
{
    EngineGo go;
    engine_go_depth(&go, 0);
    go.analysis = false;
    int unit = (info & CB_TIME_CENTI) && (info & CB_TIME_MILLI) ? 100
               : (info & CB_TIME_CENTI)                         ? 10
               : (info & CB_TIME_MILLI)                         ? 1
                                                                : 0;
    int64_t ms = maxtime > 0 && maxtime < 1e6 ? (int64_t)(maxtime * 1000.0) : 1;
    if (unit && !(info & CB_EXACT_TIME)) {
        int64_t time = (int64_t)((unsigned)moreinfo >> 16) * unit;
        int64_t inc = (int64_t)((unsigned)moreinfo & 0xFFFF) * unit;
        go.time = engine_uci_clock(true, time, inc, 0, 0);
    } else {
        go.time = engine_uci_clock(false, 0, 0, 0, ms > 0 ? ms : 1);
    }
    return go;
}

// What the engine thinks of the position, in getmove's terms.
static int verdict_of(Score s)
{
    int plies = engine_win_plies(s), db = engine_egdb_score(s);
    if (plies > 0 || db > 0)
        return CB_WIN;
    if (plies < 0 || db < 0)
        return CB_LOSS;
    return CB_UNKNOWN;
}

static void status_line(const EngineResult *r, int64_t ms, char *str)
{
    char pv[CB_REPLY_MAX / 2] = "", m[MOVE_TEXT_MAX];
    size_t used = 0;
    for (int i = 0; i < r->pvlen && used + MOVE_TEXT_MAX + 1 < sizeof pv; i++) {
        notation_move(&r->pv[i], MOVE_FMT_ALG, m, sizeof m);
        used += (size_t)snprintf(pv + used, sizeof pv - used, "%s%s", i ? " " : "", m);
    }
    int plies = engine_win_plies(r->score);
    char score[32];
    if (plies)
        snprintf(score, sizeof score, "%s in %d", plies > 0 ? "win" : "loss",
                 plies > 0 ? plies : -plies);
    else if (engine_egdb_score(r->score))
        snprintf(score, sizeof score, "database %s", r->score > 0 ? "win" : "loss");
    else
        snprintf(score, sizeof score, "%+.2f", r->score / 100.0);
    double knps = ms > 0 ? (double)r->nodes / (double)ms : (double)r->nodes;
    if (r->from_book)
        snprintf(str, CB_REPLY_MAX, "book move %s, score %s", pv, score);
    else
        snprintf(str, CB_REPLY_MAX, "depth %d, score %s, %.0f kN/s, pv %s", r->depth, score, knps,
                 pv);
}

int PLUGIN_CALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                        int info, int moreinfo, CBmove *move)
{
    Engine *e = plugin_engine();
    char pos[HUB_POS_LEN + 1];
    str[0] = '\0';
    if (!e || !hub_of_board(board, color, pos) || !follow_game(e, pos, info & CB_RESET_MOVES)) {
        snprintf(str, CB_REPLY_MAX, "Damka: not a position of Russian draughts");
        return CB_UNKNOWN;
    }
    Board before = *engine_board(e);
    EngineGo go = time_limits(maxtime, info, moreinfo);
    EngineResult r;
    int64_t t0 = util_now_ms();
    if (!plugin_search(&go, NULL, NULL, playnow, &r)) {
        snprintf(str, CB_REPLY_MAX, "no legal move");
        return CB_LOSS;
    }
    describe(&before, &r.best, move);
    engine_play(e, &r.best);
    board_of(engine_board(e), board);
    status_line(&r, util_now_ms() - t0, str);
    return verdict_of(r.score);
}

int PLUGIN_CALL islegal(int board[8][8], int color, int from, int to, CBmove *move)
{
    Board b;
    char pos[HUB_POS_LEN + 1], err[ENGINE_ERR_MAX];
    if (from < 1 || from > SQUARE_COUNT || to < 1 || to > SQUARE_COUNT ||
        !hub_of_board(board, color, pos) || !notation_parse_hub_pos(pos, &b, err, sizeof err))
        return 0;
    MoveList list;
    int n = engine_moves_of(&b, &list);
    for (int i = 0; i < n; i++)
        if (list.moves[i].from == from - 1 && list.moves[i].to == to - 1) {
            describe(&b, &list.moves[i], move);
            return 1;
        }
    return 0;
}

// CheckerBoard's book levels: 0 none, 1 all the book's moves, 2 good moves, 3 the best only.
enum { CB_BOOK_ALL_MARGIN = 200 }; // centi-men: level 1 plays any move this close to the best

static int book_level(const Engine *e)
{
    if (!engine_has_book(e) || !engine_own_book(e))
        return 0;
    if (engine_book_variety(e) == 0)
        return 3;
    return engine_book_margin(e) > ENGINE_BOOK_MARGIN_DEFAULT ? 1 : 2;
}

static int reply(char *out, int ok, const char *fmt, const char *text);

static int set_book_level(Engine *e, const char *arg, char *out)
{
    int64_t level;
    if (!util_parse_int(arg, 0, 3, &level))
        return reply(out, 0, "%s", "book: 0 (none), 1 (all moves), 2 (good moves), 3 (best moves)");
    if (level > 0 && !engine_has_book(e))
        return reply(out, 0, "%s", "no opening book: put damka.book beside the DLL");
    engine_set_own_book(e, level > 0);
    if (level == 3) {
        engine_set_book_variety(e, 0);
    } else if (level > 0) {
        if (engine_book_variety(e) == 0)
            engine_set_book_variety(e, ENGINE_BOOK_VARIETY_DEFAULT);
        engine_set_book_margin(e, level == 1 ? CB_BOOK_ALL_MARGIN : ENGINE_BOOK_MARGIN_DEFAULT);
    }
    char text[2] = {(char)('0' + level), '\0'};
    return reply(out, 1, "%s", text);
}

static int reply(char *out, int ok, const char *fmt, const char *text)
{
    snprintf(out, CB_REPLY_MAX, fmt, text);
    return ok;
}

// "set gamehist FEN MOVE ..." (pydraughts): the game's last irreversible position and the
// moves since, so that repetition is seen.
static int set_gamehist(Engine *e, char *args, char *out)
{
    char *tok[GAMEHIST_MAX];
    int n = 0;
    for (char *t = strtok(args, " "); t && n < GAMEHIST_MAX; t = strtok(NULL, " "))
        tok[n++] = t;
    char err[ENGINE_ERR_MAX];
    if (n < 1 || !engine_set_position(e, tok[0], (const char *const *)tok + 1, n - 1, MOVE_FMT_ALG,
                                      err, sizeof err))
        return reply(out, 0, "%s", n < 1 ? "gamehist needs a FEN" : err);
    g_game_known = true;
    return reply(out, 1, "%s", "ok");
}

int PLUGIN_CALL enginecommand(char command[256], char out[1024])
{
    char cmd[CB_COMMAND_MAX + 1];
    snprintf(cmd, sizeof cmd, "%s", command);
    Engine *e = plugin_engine();
    out[0] = '\0';
    int64_t v;
    if (!e)
        return reply(out, 0, "%s", "out of memory");
    if (strcmp(cmd, "name") == 0)
        return reply(out, 1, "%s", DAMKA_NAME " " DAMKA_VERSION);
    if (strcmp(cmd, "about") == 0)
        return reply(out, 1, "%s",
                     DAMKA_NAME " " DAMKA_VERSION ", a Russian draughts engine (game type 25), "
                                "by the Damka developers. Endgame databases: the egdb folder "
                                "beside this DLL.");
    if (strcmp(cmd, "help") == 0)
        return reply(out, 1, "%s",
                     "Commands: name, about, get/set gametype (25), get protocolversion, "
                     "get/set hashsize (MB), get/set book, set gamehist FEN MOVES.");
    if (strcmp(cmd, "get protocolversion") == 0)
        return reply(out, 1, "%s", "2");
    if (strcmp(cmd, "get gametype") == 0)
        return reply(out, 1, "%s", "25");
    if (strncmp(cmd, "set gametype ", 13) == 0)
        return util_parse_int(cmd + 13, 0, 1000, &v) && v == CB_GAMETYPE_RUSSIAN
                   ? reply(out, 1, "%s", "25")
                   : reply(out, 0, "%s", "Damka plays Russian draughts only (game type 25)");
    if (strcmp(cmd, "get hashsize") == 0) {
        char mb[24];
        snprintf(mb, sizeof mb, "%lld", (long long)engine_hash(e));
        return reply(out, 1, "%s", mb);
    }
    if (strncmp(cmd, "set hashsize ", 13) == 0)
        return util_parse_int(cmd + 13, ENGINE_HASH_MIN, ENGINE_HASH_MAX, &v) &&
                       engine_set_hash(e, v)
                   ? reply(out, 1, "%s", cmd + 13)
                   : reply(out, 0, "%s", "hashsize: a number of MB the machine can give");
    if (strcmp(cmd, "get book") == 0) {
        char level[2] = {(char)('0' + book_level(e)), '\0'};
        return reply(out, 1, "%s", level);
    }
    if (strncmp(cmd, "set book ", 9) == 0)
        return set_book_level(e, cmd + 9, out);
    if (strncmp(cmd, "set gamehist ", 13) == 0)
        return set_gamehist(e, cmd + 13, out);
    return reply(out, 0, "%s", "unknown command");
}
