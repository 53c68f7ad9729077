// SPDX-License-Identifier: MIT
// Tests of the opening book: the file round trip, refusals of damaged files, the engine playing
// from it (and not when told not to, nor in analysis), and damka-book building a book from PDN.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book.h"
#include "engine.h"
#include "match.h"
#include "notation.h"
#include "test_suites.h"

enum { GAMES = 6, PLIES = 12 };

static void temp_path(char *buf, size_t len, const char *what)
{
    snprintf(buf, len, "/tmp/damka-book-test-%ld-%s", (long)getpid(), what);
}

// A few random games from the start: their moves as book entries (each move its own weight).
static size_t random_entries(BookEntry *out, size_t max, Board boards[], Move moves[])
{
    uint64_t seed = 17;
    size_t n = 0;
    for (int g = 0; g < GAMES; g++) {
        Board b;
        board_start(&b);
        for (int p = 0; p < PLIES && n < max; p++) {
            MoveList list;
            int k = engine_moves_of(&b, &list);
            if (k == 0)
                break;
            const Move *m = &list.moves[test_rand(&seed) % (uint64_t)k];
            book_entry_of(&b, m, &out[n]);
            out[n].weight = (uint16_t)(1 + n % 7);
            out[n].score = (int16_t)((int)(n % 41) - 20);
            out[n].wins = (uint32_t)n;
            boards[n] = b, moves[n] = *m;
            n++;
            engine_board_after(&b, m, &b);
        }
    }
    return n;
}

START_TEST(test_book_round_trip)
{
    // Written and read back, every position of the games finds its move in the book, with its
    // fields, and every book move is legal where it is found.
    static BookEntry e[GAMES * PLIES];
    static Board boards[GAMES * PLIES];
    static Move moves[GAMES * PLIES];
    size_t n = random_entries(e, GAMES * PLIES, boards, moves);
    char path[256], err[BOOK_ERR_MAX];
    temp_path(path, sizeof path, "rt.book");
    ck_assert_msg(book_write(path, e, n, err, sizeof err), "%s", err);
    Book *book = book_open(path, err, sizeof err);
    ck_assert_msg(book != NULL, "%s", err);
    ck_assert_uint_eq(book_entries(book), n);
    for (size_t i = 0; i < n; i++) {
        BookEntry found[BOOK_MOVES_MAX];
        Move m[BOOK_MOVES_MAX];
        int k = book_probe(book, &boards[i], found, m, BOOK_MOVES_MAX), hit = 0;
        for (int j = 0; j < k; j++) {
            MoveList list;
            int legal = engine_moves_of(&boards[i], &list), ok = 0;
            for (int q = 0; q < legal; q++)
                ok += move_same_position(&list.moves[q], &m[j]);
            ck_assert_int_eq(ok, 1);
            hit += move_same_position(&m[j], &moves[i]);
        }
        ck_assert_msg(hit >= 1, "position %zu: its move is not in the book", i);
    }
    book_close(book);
    unlink(path);
}
END_TEST

// The bytes of a file, a changed copy written to another.
static long read_all(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    ck_assert(f != NULL);
    long n = (long)fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void write_all(const char *path, const uint8_t *buf, long n)
{
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    ck_assert_int_eq((long)fwrite(buf, 1, (size_t)n, f), n);
    fclose(f);
}

START_TEST(test_book_refusals_keep_the_engine_playing)
{
    // A corrupt, truncated, wrong-version or foreign file is refused with one line, and the
    // engine keeps the book it had and plays on.
    static BookEntry e[GAMES * PLIES];
    static Board boards[GAMES * PLIES];
    static Move moves[GAMES * PLIES];
    size_t n = random_entries(e, GAMES * PLIES, boards, moves);
    char good[256], bad[256], err[ENGINE_ERR_MAX];
    temp_path(good, sizeof good, "good.book");
    temp_path(bad, sizeof bad, "bad.book");
    ck_assert(book_write(good, e, n, err, sizeof err));
    static uint8_t buf[1 << 16];
    long size = read_all(good, buf, sizeof buf);
    Engine *eng = engine_new();
    ck_assert(engine_set_book_file(eng, good, err, sizeof err));
    static const struct {
        long at, cut; // the byte flipped (-1: none), the length written (-1: all)
        const char *reason;
    } CASES[] = {{100, -1, "checksum"}, {-1, 60, "truncated"},
                 {8, -1, "version"},    {0, -1, "not a Damka book"},
                 {-1, 20, "truncated"}, {25, -1, "other position keys"}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        static uint8_t copy[1 << 16];
        memcpy(copy, buf, (size_t)size);
        if (CASES[i].at >= 0)
            copy[CASES[i].at] ^= 0x5A;
        write_all(bad, copy, CASES[i].cut >= 0 ? CASES[i].cut : size);
        ck_assert(!engine_set_book_file(eng, bad, err, sizeof err));
        ck_assert_msg(strstr(err, CASES[i].reason) != NULL, "%s", err);
        ck_assert(strchr(err, '\n') == NULL);
        char now[4096];
        engine_book_file(eng, now, sizeof now);
        ck_assert_str_eq(now, good); // the previous book is kept
    }
    ck_assert(!engine_set_book_file(eng, "/nonexistent/book", err, sizeof err));
    engine_free(eng);
    unlink(good);
    unlink(bad);
}
END_TEST

static Move g_best;
static bool g_from_book;
static void keep_best(void *ctx, const EngineResult *r)
{
    (void)ctx;
    g_best = r->best;
    g_from_book = r->from_book;
}

START_TEST(test_book_played_unless_told_not_to)
{
    // With a book that knows the start position, a game's move comes from it at once (depth
    // 0); OwnBook off, a fixed depth or an infinite analysis search instead.
    BookEntry e;
    Board start;
    board_start(&start);
    MoveList list;
    engine_moves_of(&start, &list);
    Move want = list.moves[3];
    book_entry_of(&start, &want, &e);
    e.weight = 10, e.score = 12;
    char path[256], err[ENGINE_ERR_MAX];
    temp_path(path, sizeof path, "play.book");
    ck_assert(book_write(path, &e, 1, err, sizeof err));
    Engine *eng = engine_new();
    ck_assert(engine_set_book_file(eng, path, err, sizeof err));
    ck_assert(engine_set_position(eng, NULL, NULL, 0, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go;
    engine_go_depth(&go, 0);
    go.analysis = false;
    go.time = engine_uci_clock(true, 60000, 0, 0, 0);
    ck_assert(engine_go(eng, &go, NULL, keep_best, NULL));
    engine_wait(eng);
    ck_assert(g_from_book);
    ck_assert(move_same_position(&g_best, &want));
    BookEntry out[BOOK_MOVES_MAX];
    Move m[BOOK_MOVES_MAX];
    ck_assert_int_eq(engine_book_moves(eng, out, m, BOOK_MOVES_MAX), 1);
    // Told not to: the engine searches.
    ck_assert(engine_set_own_book(eng, 0));
    go.time = engine_uci_clock(true, 300, 0, 0, 0);
    ck_assert(engine_go(eng, &go, NULL, keep_best, NULL));
    engine_wait(eng);
    ck_assert(!g_from_book);
    ck_assert(engine_set_own_book(eng, 1));
    engine_go_depth(&go, 3); // a fixed depth (analysis): searched
    ck_assert(engine_go(eng, &go, NULL, keep_best, NULL));
    engine_wait(eng);
    ck_assert(!g_from_book);
    engine_go_depth(&go, 0);
    go.infinite = true; // go infinite: never the book
    ck_assert(engine_go(eng, &go, NULL, keep_best, NULL));
    engine_stop(eng);
    ck_assert(!g_from_book);
    engine_free(eng);
    unlink(path);
}
END_TEST

// The index among moves[0..n) of the move the engine plays from its book, n plays in a row.
static void book_picks(Engine *eng, const Move *moves, int n, int plays, int *picks)
{
    char err[ENGINE_ERR_MAX];
    EngineGo go;
    engine_go_depth(&go, 0);
    go.analysis = false;
    go.time = engine_uci_clock(true, 60000, 0, 0, 0);
    for (int k = 0; k < plays; k++) {
        ck_assert(engine_set_position(eng, NULL, NULL, 0, MOVE_FMT_UCI, err, sizeof err));
        ck_assert(engine_go(eng, &go, NULL, keep_best, NULL));
        engine_wait(eng);
        ck_assert(g_from_book);
        picks[k] = -1;
        for (int i = 0; i < n; i++)
            if (move_same_position(&g_best, &moves[i]))
                picks[k] = i;
        ck_assert(picks[k] >= 0);
    }
}

START_TEST(test_book_variety)
{
    // BookVariety: a choice by weight among the moves within BookMargin of the best, the same
    // sequence for the same seed (and another for another seed); 0: always the best-scored.
    enum { PLAYS = 300 };
    Board start;
    board_start(&start);
    MoveList list;
    engine_moves_of(&start, &list);
    static const int weight[3] = {80, 20, 100}, score[3] = {10, 0, -50}; // the last: too low
    BookEntry e[3];
    for (int i = 0; i < 3; i++) {
        book_entry_of(&start, &list.moves[i], &e[i]);
        e[i].weight = (uint16_t)weight[i], e[i].score = (int16_t)score[i];
    }
    char path[256], err[ENGINE_ERR_MAX];
    temp_path(path, sizeof path, "variety.book");
    ck_assert(book_write(path, e, 3, err, sizeof err));
    static int picks[4][PLAYS];
    static const int seeds[4] = {7, 7, 8, 0};
    for (int k = 0; k < 4; k++) {
        Engine *eng = engine_new();
        ck_assert(engine_set_book_file(eng, path, err, sizeof err));
        ck_assert(engine_set_book_margin(eng, 30));
        ck_assert(engine_set_book_variety(eng, seeds[k]));
        book_picks(eng, list.moves, 3, PLAYS, picks[k]);
        engine_free(eng);
    }
    int count[3] = {0, 0, 0};
    for (int i = 0; i < PLAYS; i++)
        count[picks[0][i]]++;
    ck_assert_int_eq(count[2], 0);
    ck_assert_msg(count[0] >= 200 && count[1] >= 30, "%d %d", count[0], count[1]);
    ck_assert(memcmp(picks[0], picks[1], sizeof picks[0]) == 0);
    ck_assert(memcmp(picks[0], picks[2], sizeof picks[0]) != 0);
    for (int i = 0; i < PLAYS; i++)
        ck_assert_int_eq(picks[3][i], 0);
    unlink(path);
}
END_TEST

START_TEST(test_damka_book_from_pdn)
{
    // damka-book --pdn counts the games' moves with their results; --dump shows them.
    const char *tool = getenv("DAMKA_BOOK");
    ck_assert_msg(tool != NULL, "DAMKA_BOOK is not set (run through make test)");
    char pdn[256], book[256], out[256], cmd[1200];
    temp_path(pdn, sizeof pdn, "games.pdn");
    temp_path(book, sizeof book, "pdn.book");
    temp_path(out, sizeof out, "dump.txt");
    FILE *f = fopen(pdn, "w");
    ck_assert(f != NULL);
    fputs("[GameType \"25\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-g5 2. b2-c3 1-0\n\n"
          "[GameType \"25\"]\n[Result \"1/2-1/2\"]\n\n1. c3-d4 b6-a5 1/2-1/2\n\n"
          "[GameType \"25\"]\n[Result \"*\"]\n\n1. a3-b4 *\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s --pdn %s --out %s > /dev/null && %s --dump %s > %s", tool, pdn,
             book, tool, book, out);
    ck_assert_int_eq(system(cmd), 0);
    static uint8_t text[4096];
    long n = read_all(out, text, sizeof text - 1);
    text[n] = '\0';
    // Two finished games played c3-d4 (a win and a draw); the unfinished game is not counted.
    ck_assert_msg(strstr((char *)text, "c3-d4") && strstr((char *)text, "won 1 drawn 1 lost 0"),
                  "%s", text);
    ck_assert_msg(strstr((char *)text, "a3-b4") == NULL, "%s", text);
    unlink(pdn);
    unlink(book);
    unlink(out);
}
END_TEST

START_TEST(test_damka_book_learns)
{
    // --learn: a searched line that loses its games sinks below the other (a line that loses
    // is played less), one won game does not make a line the best, and the counts add up over
    // two runs.
    const char *tool = getenv("DAMKA_BOOK");
    ck_assert_msg(tool != NULL, "DAMKA_BOOK is not set (run through make test)");
    Board start;
    board_start(&start);
    BookEntry e[3];
    Move m[3];
    char err[BOOK_ERR_MAX], book[256], pdn[256], cmd[1200];
    static const char *const moves[3] = {"c3-d4", "g3-h4", "a3-b4"};
    static const int score[3] = {20, 10, 0};
    for (int i = 0; i < 3; i++) {
        ck_assert(notation_parse_move(&start, moves[i], MOVE_FMT_ALG, &m[i], err, sizeof err));
        book_entry_of(&start, &m[i], &e[i]);
        e[i].weight = 100, e[i].score = (int16_t)score[i];
    }
    temp_path(book, sizeof book, "learn.book");
    temp_path(pdn, sizeof pdn, "learn.pdn");
    ck_assert(book_write(book, e, 3, err, sizeof err));
    // c3-d4 loses four games; a3-b4 wins one.
    FILE *f = fopen(pdn, "w");
    ck_assert(f != NULL);
    for (int i = 0; i < 4; i++)
        fputs("[GameType \"25\"]\n[Result \"0-1\"]\n\n1. c3-d4 f6-g5 0-1\n\n", f);
    fputs("[GameType \"25\"]\n[Result \"1-0\"]\n\n1. a3-b4 f6-g5 1-0\n\n", f);
    fclose(f);
    for (int run = 1; run <= 2; run++) {
        snprintf(cmd, sizeof cmd, "%s --learn %s %s > /dev/null", tool, book, pdn);
        ck_assert_int_eq(system(cmd), 0);
        Book *b = book_open(book, err, sizeof err);
        ck_assert_msg(b != NULL, "%s", err);
        BookEntry got[BOOK_MOVES_MAX];
        Move gm[BOOK_MOVES_MAX];
        int n = book_probe(b, &start, got, gm, BOOK_MOVES_MAX);
        ck_assert_int_eq(n, 3);
        int sc[3] = {0, 0, 0};
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                if (move_same_position(&gm[i], &m[k])) {
                    sc[k] = got[i].score;
                    if (k == 0)
                        ck_assert_int_eq(got[i].losses, 4u * (unsigned)run);
                    if (k == 2)
                        ck_assert_int_eq(got[i].wins, (unsigned)run);
                }
        ck_assert_msg(sc[0] < sc[1], "run %d: the losing line %d, the other %d", run, sc[0], sc[1]);
        ck_assert_int_eq(sc[1], 10); // no games: its search's score
        if (run == 1)                // one win: up, but not past the best searched line
            ck_assert_msg(sc[2] > 0 && sc[2] < 20, "%d", sc[2]);
        book_close(b);
    }
    unlink(book);
    unlink(pdn);
}
END_TEST

START_TEST(test_damka_book_expands)
{
    // Drop-out expansion from the start: the start position gets several moves within the
    // margin, the best first by weight, and the position after the best one is searched too.
    const char *tool = getenv("DAMKA_BOOK");
    ck_assert_msg(tool != NULL, "DAMKA_BOOK is not set (run through make test)");
    char book[256], cmd[1200], err[BOOK_ERR_MAX];
    temp_path(book, sizeof book, "expand.book");
    snprintf(cmd, sizeof cmd,
             "%s --expand --out %s --plies 2 --nodes 3000 --margin 40 --threads 1 > /dev/null",
             tool, book);
    ck_assert_int_eq(system(cmd), 0);
    Book *b = book_open(book, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    Board start;
    board_start(&start);
    BookEntry e[BOOK_MOVES_MAX];
    Move m[BOOK_MOVES_MAX];
    int n = book_probe(b, &start, e, m, BOOK_MOVES_MAX), best = 0;
    ck_assert_int_ge(n, 2);
    for (int i = 1; i < n; i++) {
        ck_assert_int_ge(e[i].score, e[0].score - 40); // within the margin
        if (e[i].score > e[best].score)
            best = i;
    }
    ck_assert_int_eq(e[best].weight, 100);
    Board after;
    engine_board_after(&start, &m[best], &after);
    ck_assert_int_ge(book_probe(b, &after, e, m, BOOK_MOVES_MAX), 1); // one ply deeper
    book_close(b);
    unlink(book);
}
END_TEST

Suite *suite_book(void)
{
    Suite *s = suite_create("book");
    TCase *tc = tcase_create("opening-book");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_book_round_trip);
    tcase_add_test(tc, test_book_refusals_keep_the_engine_playing);
    tcase_add_test(tc, test_book_played_unless_told_not_to);
    tcase_add_test(tc, test_book_variety);
    tcase_add_test(tc, test_damka_book_from_pdn);
    tcase_add_test(tc, test_damka_book_learns);
    tcase_add_test(tc, test_damka_book_expands);
    suite_add_tcase(s, tc);
    return s;
}
