// SPDX-License-Identifier: MIT
// Tests of the library interfaces on this system (the same code the Windows DLL exports, here
// called directly): CheckerBoard's getmove, islegal and enginecommand, and the Kallisto EI_*
// functions: whole games of legal moves, the history kept from the boards, play-now and stop.
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "book.h"
#include "cb.h"
#include "ei.h"
#include "engine.h"
#include "notation.h"
#include "test_suites.h"
#include "util.h"

// CheckerBoard's board of a FEN.
static void cb_board(const char *fen, int board[8][8], int *color)
{
    Board b;
    test_fen(fen, &b);
    memset(board, 0, 8 * sizeof board[0]);
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        char name[3];
        notation_square(s, name);
        int x = 7 - (name[0] - 'a'), y = 7 - (name[1] - '1');
        int p = board_piece_at(&b, s); // 0 empty, 1 w, 2 b, 3 W, 4 B
        static const int CB[] = {CB_FREE, CB_WHITE | CB_MAN, CB_BLACK | CB_MAN, CB_WHITE | CB_KING,
                                 CB_BLACK | CB_KING};
        board[x][y] = CB[p];
    }
    *color = b.side == SIDE_WHITE ? CB_WHITE : CB_BLACK;
}

// The FEN of a CheckerBoard board (side given).
static void fen_of(int board[8][8], int color, char *fen, size_t len)
{
    char hub[HUB_POS_LEN + 1];
    hub[0] = color == CB_WHITE ? 'W' : 'B';
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        char name[3];
        notation_square(s, name);
        int v = board[7 - (name[0] - 'a')][7 - (name[1] - '1')];
        hub[s + 1] = v == (CB_WHITE | CB_MAN)    ? 'w'
                     : v == (CB_BLACK | CB_MAN)  ? 'b'
                     : v == (CB_WHITE | CB_KING) ? 'W'
                     : v == (CB_BLACK | CB_KING) ? 'B'
                                                 : 'e';
    }
    hub[HUB_POS_LEN] = '\0';
    Board b;
    char err[128];
    ck_assert_msg(notation_parse_hub_pos(hub, &b, err, sizeof err), "%s", err);
    notation_fen(&b, fen, len);
}

START_TEST(test_cb_game_legal_to_the_end)
{
    // getmove plays both sides of a game from the start: every board it returns is the one
    // before after a legal move, CBmove says which, and the game ends by the rules. A referee
    // engine keeps the game.
    int board[8][8], color, playnow = 0;
    cb_board("W:W21-32:B1-12", board, &color);
    Engine *ref = engine_new();
    ck_assert(ref != NULL);
    char str[CB_REPLY_MAX], fen[FEN_MAX], err[128], cmd[CB_COMMAND_MAX] = "set gametype 25",
                                                    rep[CB_REPLY_MAX];
    ck_assert_int_eq(enginecommand(cmd, rep), 1);
    int plies = 0;
    for (; plies < 300 && engine_game_result(ref) == GAME_ONGOING; plies++) {
        CBmove m;
        getmove(board, color, 0.02, str, &playnow, plies == 0 ? CB_RESET_MOVES : 0, 0, &m);
        color ^= CB_WHITE | CB_BLACK;
        fen_of(board, color, fen, sizeof fen);
        // The referee finds the move that leads there.
        MoveList list;
        int n = engine_legal_moves(ref, &list), found = -1;
        for (int i = 0; i < n && found < 0; i++) {
            Board child;
            char cfen[FEN_MAX];
            engine_board_after(engine_board(ref), &list.moves[i], &child);
            notation_fen(&child, cfen, sizeof cfen);
            if (strcmp(cfen, fen) == 0)
                found = i;
        }
        ck_assert_msg(found >= 0, "ply %d: %s is no legal move away (%s)", plies, fen, str);
        char name[3];
        notation_square(list.moves[found].from, name);
        ck_assert_int_eq(m.from.x, 7 - (name[0] - 'a'));
        ck_assert_int_eq(m.from.y, 7 - (name[1] - '1'));
        ck_assert_int_eq(m.jumps, __builtin_popcountll(list.moves[found].captured));
        ck_assert(engine_play(ref, &list.moves[found]));
        ck_assert(strstr(str, "depth") != NULL);
    }
    ck_assert_msg(engine_game_result(ref) != GAME_ONGOING, "no result after %d plies", plies);
    ck_assert_int_ge(plies, 20); // a game, not a position that ends at once
    (void)err;
    engine_free(ref);
}
END_TEST

typedef struct PlayNow {
    int *flag;
    int delay_ms;
} PlayNow;

static void *set_later(void *arg)
{
    PlayNow *p = arg;
    struct timespec ts = {p->delay_ms / 1000, (long)(p->delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    __atomic_store_n(p->flag, 1, __ATOMIC_RELAXED); // as a GUI sets it, from its own thread
    return NULL;
}

START_TEST(test_cb_playnow_and_commands)
{
    char none_err[ENGINE_ERR_MAX];
    ck_assert(engine_set_book_file(plugin_engine(), "", none_err, sizeof none_err)); // none

    // *playnow ends a 60-second search with a legal move; islegal and the commands answer as
    // CheckerBoard's API says, and game types other than 25 are refused.
    int board[8][8], color, playnow = 0;
    cb_board("W:W21-32:B1-12", board, &color);
    PlayNow p = {&playnow, 200};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, set_later, &p), 0);
    int64_t t0 = util_now_ms();
    char str[CB_REPLY_MAX];
    CBmove m;
    getmove(board, color, 60.0, str, &playnow, CB_RESET_MOVES, 0, &m);
    int64_t took = util_now_ms() - t0;
    pthread_join(t, NULL);
    ck_assert_msg(took < 5000, "play now answered after %lld ms", (long long)took);
    ck_assert_int_ne(m.oldpiece, CB_FREE);

    cb_board("W:W21-32:B1-12", board, &color);
    ck_assert_int_eq(islegal(board, CB_WHITE, 22, 18, &m), 1); // c3-d4
    ck_assert_int_eq(m.to.x, 7 - 3);
    ck_assert_int_eq(islegal(board, CB_WHITE, 22, 19, &m), 0); // c3-f4: too far
    ck_assert_int_eq(islegal(board, CB_BLACK, 22, 18, &m), 0);
    ck_assert_int_eq(islegal(board, CB_WHITE, 0, 40, &m), 0);
    static const struct {
        const char *command, *reply;
        int ok;
    } CASES[] = {{"name", "Damka", 1},
                 {"get gametype", "25", 1},
                 {"set gametype 25", "25", 1},
                 {"set gametype 21", "Russian", 0},
                 {"get protocolversion", "2", 1},
                 {"set hashsize 16", "16", 1},
                 {"get hashsize", "16", 1},
                 {"set hashsize 0", "MB", 0},
                 {"get book", "0", 1},
                 {"set book 2", "no opening book", 0},
                 {"set book 9", "best moves", 0},
                 {"frobnicate", "unknown", 0},
                 {"set gamehist W:W21-32:B1-12 c3-d4 f6-g5", "ok", 1},
                 {"set gamehist X:nonsense", "FEN", 0}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char cmd[CB_COMMAND_MAX], rep[CB_REPLY_MAX];
        snprintf(cmd, sizeof cmd, "%s", CASES[i].command);
        ck_assert_int_eq(enginecommand(cmd, rep), CASES[i].ok);
        ck_assert_msg(strstr(rep, CASES[i].reply) != NULL, "%s: %s", CASES[i].command, rep);
    }
}
END_TEST

START_TEST(test_cb_book_levels)
{
    // CheckerBoard's book setting (0 none, 1 all moves, 2 good, 3 best) over Damka's book; a
    // book move is played at once and named so in the status line.
    Board start;
    board_start(&start);
    Move m;
    char err[ENGINE_ERR_MAX], path[128];
    ck_assert(notation_parse_move(&start, "g3-h4", MOVE_FMT_ALG, &m, err, sizeof err));
    BookEntry ent;
    book_entry_of(&start, &m, &ent);
    ent.weight = 1, ent.score = 5;
    snprintf(path, sizeof path, "/tmp/damka-cb-book-%ld.book", (long)getpid());
    ck_assert(book_write(path, &ent, 1, err, sizeof err));
    ck_assert(engine_set_book_file(plugin_engine(), path, err, sizeof err));
    static const struct {
        const char *set, *get;
    } LEVELS[] = {
        {"set book 1", "1"}, {"set book 3", "3"}, {"set book 2", "2"}, {"set book 0", "0"}};
    for (size_t i = 0; i < sizeof LEVELS / sizeof LEVELS[0]; i++) {
        char cmd[CB_COMMAND_MAX], rep[CB_REPLY_MAX];
        snprintf(cmd, sizeof cmd, "%s", LEVELS[i].set);
        ck_assert_int_eq(enginecommand(cmd, rep), 1);
        snprintf(cmd, sizeof cmd, "get book");
        ck_assert_int_eq(enginecommand(cmd, rep), 1);
        ck_assert_msg(strcmp(rep, LEVELS[i].get) == 0, "%s: %s", LEVELS[i].set, rep);
    }
    char cmd[CB_COMMAND_MAX] = "set book 2", rep[CB_REPLY_MAX];
    ck_assert_int_eq(enginecommand(cmd, rep), 1);
    int board[8][8], color, playnow = 0;
    cb_board("W:W21-32:B1-12", board, &color);
    char str[CB_REPLY_MAX];
    CBmove cm;
    int64_t t0 = util_now_ms();
    getmove(board, color, 30.0, str, &playnow, CB_RESET_MOVES, 0, &cm);
    ck_assert_msg(util_now_ms() - t0 < 5000, "a book move took %lld ms",
                  (long long)(util_now_ms() - t0));
    ck_assert_msg(strncmp(str, "book move g3-h4", 15) == 0, "%s", str);
    ck_assert(engine_set_book_file(plugin_engine(), "", err, sizeof err));
    unlink(path);
}
END_TEST

static int g_infos;
static void PLUGIN_CALL count_info(int score, int depth, int speed, char *pv, char *cm)
{
    (void)score, (void)speed, (void)cm;
    ck_assert(depth >= 1 && pv != NULL);
    g_infos++;
}

START_TEST(test_ei_game_and_moves)
{
    // The Kallisto interface: a position set, moves in both of its forms, a game of EI_Think
    // against itself whose every move is legal, the callback fed.
    EI_Initialization(count_info, 16);
    ck_assert(strstr(EI_GetName(), "Damka") != NULL);
    char pos[] = "bbbbbbbbbbbb........wwwwwwwwwwwww";
    EI_NewGame();
    EI_SetupBoard(pos);
    Engine *e = plugin_engine();
    char fen[FEN_MAX];
    notation_fen(engine_board(e), fen, sizeof fen);
    ck_assert_str_eq(fen, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    char quiet[] = "c3d4";
    EI_MakeMove(quiet);
    ck_assert_int_eq(engine_board(e)->side, SIDE_BLACK);
    char bad[] = "c3d4"; // no longer legal: ignored
    EI_MakeMove(bad);
    ck_assert_int_eq(engine_board(e)->side, SIDE_BLACK);
    // A capture of two pieces as origin:taken:taken:destination (W:W22:B10,18,19 is
    // c3:e5:c7 taking d4 and d6).
    char cap_pos[EI_POSITION_LEN + 1];
    memset(cap_pos, '.', EI_POSITION_LEN);
    cap_pos[EI_POSITION_LEN] = '\0';
    cap_pos[10 - 1] = cap_pos[18 - 1] = cap_pos[19 - 1] = 'b'; // squares 10, 18, 19
    cap_pos[22 - 1] = 'w';
    cap_pos[EI_POSITION_LEN - 1] = 'w'; // White to move
    EI_SetupBoard(cap_pos);
    notation_fen(engine_board(e), fen, sizeof fen);
    ck_assert_str_eq(fen, "W:W22:B10,18,19");
    char cap[] = "c3:d4:d6:c7";
    EI_MakeMove(cap);
    notation_fen(engine_board(e), fen, sizeof fen);
    ck_assert_str_eq(fen, "B:W6:B19");

    EI_NewGame();
    EI_SetTimeControl(1, 10);
    g_infos = 0;
    int plies = 0;
    for (; plies < 300 && engine_game_result(e) == GAME_ONGOING; plies++) {
        Board before = *engine_board(e);
        EI_SetTime(200, 200);
        const char *m = EI_Think();
        ck_assert_msg(m[0] != '\0', "no move at ply %d", plies);
        MoveList list;
        int n = engine_moves_of(&before, &list), found = 0;
        for (int i = 0; i < n; i++) {
            Board child;
            engine_board_after(&before, &list.moves[i], &child);
            found += board_equal(&child, engine_board(e));
        }
        ck_assert_msg(found == 1, "ply %d: %s is not one legal move", plies, m);
    }
    ck_assert_int_ne(engine_game_result(e), GAME_ONGOING);
    ck_assert_int_ge(plies, 20);
    ck_assert_int_gt(g_infos, 0);
}
END_TEST

static void *stop_later(void *arg)
{
    struct timespec ts = {0, 300000000L};
    (void)arg;
    nanosleep(&ts, NULL);
    EI_Stop();
    return NULL;
}

START_TEST(test_ei_analyse_until_stop_and_ponder)
{
    // EI_Analyse searches until EI_Stop from another thread; EI_Ponder searches in the
    // background and EI_PonderHit answers the opponent's move with a move of the engine.
    EI_Initialization(NULL, 16);
    EI_NewGame();
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, stop_later, NULL), 0);
    int64_t t0 = util_now_ms();
    EI_Analyse();
    int64_t took = util_now_ms() - t0;
    pthread_join(t, NULL);
    ck_assert_msg(took >= 250 && took < 5000, "analysis ended after %lld ms", (long long)took);
    EI_NewGame();
    char first[] = "c3d4";
    EI_MakeMove(first);
    EI_Ponder();
    char reply[] = "f6g5";
    EI_SetTime(1000, 1000);
    const char *m = EI_PonderHit(reply);
    ck_assert(m[0] != '\0');
    ck_assert_int_eq(engine_board(plugin_engine())->side, SIDE_BLACK);
    EI_OnExit();
}
END_TEST

Suite *suite_plugins(void)
{
    Suite *s = suite_create("plugins");
    TCase *tc = tcase_create("checkerboard-kallisto");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cb_game_legal_to_the_end);
    tcase_add_test(tc, test_cb_playnow_and_commands);
    tcase_add_test(tc, test_cb_book_levels);
    tcase_add_test(tc, test_ei_game_and_moves);
    tcase_add_test(tc, test_ei_analyse_until_stop_and_ponder);
    suite_add_tcase(s, tc);
    return s;
}
