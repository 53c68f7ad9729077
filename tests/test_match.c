// SPDX-License-Identifier: MIT
// Match runner tests: clocks, statistics, PDN, openings, adjudication, and whole matches
// against misbehaving fake engines and between two damka processes.
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "match.h"
#include "movegen.h"
#include "notation.h"
#include "test_suites.h"

START_TEST(test_clock_parse_and_charge)
{
    TimeControl tc = {0};
    ck_assert(tc_parse_clock("40/10+0.1", &tc));
    ck_assert_int_eq(tc.moves, 40);
    ck_assert_int_eq(tc.base_ms, 10000);
    ck_assert_int_eq(tc.inc_ms, 100);
    ck_assert(tc_parse_clock("0/5+0.05", &tc));
    ck_assert_int_eq(tc.moves, 0);
    ck_assert_int_eq(tc.base_ms, 5000);
    ck_assert_int_eq(tc.inc_ms, 50);
    ck_assert(tc_parse_clock("1:30+1", &tc));
    ck_assert_int_eq(tc.base_ms, 90000);
    ck_assert(!tc_parse_clock("abc", &tc));
    ck_assert(!tc_parse_clock("40/0+1", &tc));
    ck_assert(!tc_parse_clock("5+-1", &tc));

    // 2 moves per period of 1 s, increment 0.1 s.
    ck_assert(tc_parse_clock("2/1+0.1", &tc));
    tc.margin_ms = 50;
    Clock c;
    clock_start(&c, &tc);
    ck_assert_int_eq(c.left_ms, 1000);
    ck_assert_int_eq(clock_movestogo(&c, &tc), 2);
    ck_assert(clock_charge(&c, &tc, 300));
    ck_assert_int_eq(c.left_ms, 800);
    ck_assert_int_eq(clock_movestogo(&c, &tc), 1);
    ck_assert(clock_charge(&c, &tc, 200)); // end of period: + 1 s
    ck_assert_int_eq(c.left_ms, 1700);
    ck_assert_int_eq(clock_movestogo(&c, &tc), 2);
    ck_assert(clock_charge(&c, &tc, 1740));  // 40 ms over, within the 50 ms margin
    ck_assert(!clock_charge(&c, &tc, 1000)); // far over: flag
    char buf[32];
    tc_format(&tc, buf, sizeof buf);
    ck_assert_str_eq(buf, "2/1+0.1");
}
END_TEST

START_TEST(test_stats_against_hand_values)
{
    // W 10, L 5, D 5: score 0.625. Values computed by hand (see the formulas in stats.c).
    MatchScore m = {10, 5, 5};
    double elo, err;
    stats_elo_error(&m, &elo, &err);
    ck_assert_double_eq_tol(elo, 88.7395, 1e-3);
    ck_assert_double_eq_tol(err, 143.8749, 1e-3);
    ck_assert_double_eq_tol(stats_los(&m), 90.1647, 1e-3);
    ck_assert_double_eq_tol(stats_sprt_llr(&m, 0, 10), 0.197225, 1e-5);
    double lo, hi;
    stats_sprt_bounds(0.05, 0.05, &lo, &hi);
    ck_assert_double_eq_tol(lo, -2.944439, 1e-5);
    ck_assert_double_eq_tol(hi, 2.944439, 1e-5);
    MatchScore even = {3, 3, 4};
    stats_elo_error(&even, &elo, &err);
    ck_assert_double_eq_tol(elo, 0.0, 1e-9);
    ck_assert(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0);
    // No spread (one result only): an unbounded bar, never nan.
    MatchScore only_wins = {1, 0, 0}, only_losses = {0, 3, 0}, only_draws = {0, 0, 7};
    stats_elo_error(&only_wins, &elo, &err);
    ck_assert(isinf(elo) && elo > 0 && isinf(err) && err > 0);
    stats_elo_error(&only_losses, &elo, &err);
    ck_assert(isinf(elo) && elo < 0 && isinf(err) && err > 0);
    stats_elo_error(&only_draws, &elo, &err);
    ck_assert_double_eq_tol(elo, 0.0, 1e-9);
    ck_assert(isinf(err) && err > 0);
}
END_TEST

static void play_texts(Game *g, const char *const *moves, int n, const Adjudication *adj)
{
    for (int i = 0; i < n; i++) {
        Move m;
        char err[128];
        ck_assert_msg(notation_parse_move(&g->board, moves[i], MOVE_FMT_ALG, &m, err, sizeof err),
                      "%s: %s", moves[i], err);
        game_play(g, &m, false, 0, adj);
    }
}

START_TEST(test_pdn_writer)
{
    Game *g = calloc(1, sizeof *g);
    Board b;
    test_fen("W:W22:B10,18,19", &b);
    game_start(g, &b);
    Adjudication adj = {0};
    static const char *const moves[] = {"c3:e5:c7", "f4-e3"};
    play_texts(g, moves, 2, &adj);
    game_end(g, OUT_WHITE_WINS, "adjudication: test");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    PdnTags t = {"ev", "here", "2026.11.29", "A", "B", "40/10+0.1", 3, NULL, NULL, NULL, NULL, 0};
    pdn_write(f, &t, g);
    fclose(f);
    static const char *const want[] = {
        "[Event \"ev\"]",
        "[Site \"here\"]",
        "[Date \"2026.11.29\"]",
        "[Round \"3\"]",
        "[White \"A\"]",
        "[Black \"B\"]",
        "[Result \"1-0\"]",
        "[GameType \"25\"]",
        "[FEN \"W:Wc3:Bd6,d4,f4\"]", // algebraic squares: what pydraughts reads
        "[TimeControl \"40/10+0.1\"]",
        "[PlyCount \"2\"]",
        "[Termination \"adjudication\"]",
        "1. c3:e5:c7 f4-e3 {adjudication: test} 1-0"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(text, want[i]) != NULL, "missing %s in\n%s", want[i], text);
    // The tag reads back as the start position, kings included.
    Board k, back;
    test_fen("B:W22,23,K29:B1,5,K14", &k);
    char fen[FEN_MAX], err[128];
    notation_fen_algebraic(&k, fen, sizeof fen);
    ck_assert_str_eq(fen, "B:Wc3,e3,Ka1:Bb8,a7,Kc5");
    ck_assert_msg(notation_parse_fen(fen, &back, err, sizeof err), "%s", err);
    ck_assert(board_equal(&k, &back));
    free(text);
    free(g);
}
END_TEST

START_TEST(test_openings_reader)
{
    const char *data = "# comment\n"
                       "c3d4 f6g5 g3h4\n"
                       "W:W22:B10,18,19   # a FEN alone\n"
                       "\n"
                       "B:W21-32:B1-12 moves f6-g5\n";
    FILE *f = fmemopen((void *)data, strlen(data), "r");
    Opening *o = NULL;
    char err[128];
    int n = openings_read(f, &o, err, sizeof err);
    fclose(f);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(o[0].nmoves, 3);
    ck_assert_int_eq(o[1].nmoves, 0);
    ck_assert_str_eq(o[1].fen, "W:W22:B10,18,19");
    ck_assert_int_eq(o[2].start.side, SIDE_BLACK);
    ck_assert_int_eq(o[2].nmoves, 1);
    free(o);
    const char *bad = "c3d4 c3d4\n";
    f = fmemopen((void *)bad, strlen(bad), "r");
    ck_assert_int_eq(openings_read(f, &o, err, sizeof err), -1);
    ck_assert(strstr(err, "line 1") != NULL);
    fclose(f);
}
END_TEST

START_TEST(test_openings_fmjd_table)
{
    // The FMJD Drawing Table of 64 squares: 736 openings, 734 distinct positions, every one a
    // legal position with a move to play (no game over before it starts).
    FILE *f = fopen(DATA_DIR "/../../book/openings/fmjd-64.txt", "r");
    ck_assert(f != NULL);
    Opening *o = NULL;
    char err[128];
    int n = openings_read(f, &o, err, sizeof err);
    fclose(f);
    ck_assert_msg(n == 736, "%d openings: %s", n, err);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        MoveList list;
        ck_assert(board_is_ok(&o[i].start));
        ck_assert_int_gt(movegen_all(&o[i].start, &list), 0);
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = board_equal(&o[i].start, &o[j].start);
        distinct += !seen;
    }
    ck_assert_int_eq(distinct, 734);
    free(o);
}
END_TEST

START_TEST(test_adjudication_rules)
{
    Game *g = calloc(1, sizeof *g);
    Adjudication adj = {0};
    Board b;
    // No legal move: the side that cannot move loses.
    test_fen("W:W22:B17,13", &b);
    game_start(g, &b);
    Move m;
    char err[128];
    test_fen("B:W22,25:B13", &b); // after b4... black a5 blocked? black to move, a5-b4 legal
    game_start(g, &b);
    static const char *const lose[] = {"a5-b4", "c3:a5"};
    play_texts(g, lose, 2, &adj);
    ck_assert_int_eq(g->outcome, OUT_WHITE_WINS);
    ck_assert(strstr(g->reason, "Black has no legal move") != NULL);
    // Threefold repetition.
    test_fen("W:WK29,21:BK5,12", &b);
    game_start(g, &b);
    static const char *const cycle[] = {"a1-b2", "a7-b8", "b2-a1", "b8-a7",
                                        "a1-b2", "a7-b8", "b2-a1", "b8-a7"};
    play_texts(g, cycle, 8, &adj);
    ck_assert_int_eq(g->outcome, OUT_DRAW);
    ck_assert(strstr(g->reason, "7.2.3") != NULL);
    // Move limit.
    adj.maxmoves = 2;
    test_fen("W:WK29,21:BK5,12", &b);
    game_start(g, &b);
    play_texts(g, cycle, 4, &adj);
    ck_assert_int_eq(g->outcome, OUT_DRAW);
    ck_assert(strstr(g->reason, "move limit") != NULL);
    // Both engines agree on a win for White for 2 moves each: Black resigns.
    adj = (Adjudication){.resign_movecount = 2, .resign_score = 500};
    test_fen("W:WK29,21:BK5,12", &b);
    game_start(g, &b);
    int scores[] = {600, -700, 650, -800};
    for (int i = 0; i < 4 && g->outcome == OUT_NONE; i++) {
        ck_assert(notation_parse_move(&g->board, cycle[i], MOVE_FMT_ALG, &m, err, sizeof err));
        game_play(g, &m, true, scores[i], &adj);
    }
    ck_assert_int_eq(g->outcome, OUT_WHITE_WINS);
    ck_assert(strstr(g->reason, "adjudication") != NULL);
    // Draw agreement only from the given move number on.
    adj = (Adjudication){.draw_movenumber = 3, .draw_movecount = 1, .draw_score = 10};
    game_start(g, &b);
    for (int i = 0; i < 6 && g->outcome == OUT_NONE; i++) {
        ck_assert(notation_parse_move(&g->board, cycle[i], MOVE_FMT_ALG, &m, err, sizeof err));
        game_play(g, &m, true, 5, &adj);
        if (i < 4)
            ck_assert_int_eq(g->outcome, OUT_NONE);
    }
    ck_assert_int_eq(g->outcome, OUT_DRAW);
    free(g);
}
END_TEST

// Runs damka-match with the given arguments and returns its output (caller frees). The
// engines get two minutes to start: under TSan Damka took more than 10 s to answer uciok on a
// loaded CI machine, past the runner's default of 10 s.
static char *run_match(const char *args)
{
    const char *bin = getenv("DAMKA_MATCH");
    ck_assert_msg(bin != NULL, "DAMKA_MATCH is not set (run through make test)");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s -starttime 120 %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    size_t got;
    while ((got = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (len + 1 == cap)
            out = realloc(out, cap *= 2);
    }
    out[len] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    return out;
}

// A match against a misbehaving engine: each fault is caught, recorded and scored.
static const struct {
    const char *mode, *each, *expect;
} FAULTS[] = {
    {"illegal", "depth=2", "faults 2: illegal move 2"},
    {"crash", "depth=2", "crash"},
    {"hang", "depth=2", "hang"},
    {"late", "st=0.3", "time losses 2"},
    {"garbage", "depth=2", "malformed reply"},
};

START_TEST(test_match_fake_engines)
{
    const char *fake = getenv("FAKE_DIR"), *damka = getenv("DAMKA_BIN");
    ck_assert(fake && damka);
    char args[1024];
    snprintf(args, sizeof args,
             "-engine \"cmd=%s/fake_engine %s\" name=fake -engine cmd=%s name=damka -each %s "
             "-games 2 -hangtime 1",
             fake, FAULTS[_i].mode, damka, FAULTS[_i].each);
    char *out = run_match(args);
    ck_assert_msg(strstr(out, FAULTS[_i].expect) != NULL, "%s: want '%s' in\n%s", FAULTS[_i].mode,
                  FAULTS[_i].expect, out);
    ck_assert_msg(strstr(out, "Score of fake vs damka: 0 - 2 - 0") != NULL, "%s", out);
    ck_assert(strstr(out, "Elo difference:") != NULL);
    free(out);
}
END_TEST

START_TEST(test_match_damka_vs_damka)
{
    // A short real match: every game ends by the rules (no move, or a draw of rule 7.2).
    const char *damka = getenv("DAMKA_BIN");
    char args[1024], pdn[] = "/tmp/damka-test-XXXXXX";
    int fd = mkstemp(pdn);
    ck_assert(fd >= 0);
    snprintf(args, sizeof args,
             "-engine cmd=%s name=a -engine cmd=%s name=b -each tc=0/2+0.05 -games 4 "
             "-concurrency 2 -openings file=%s/../book/openings/3ply.txt -pdnout %s",
             damka, damka, DATA_DIR "/..", pdn);
    char *out = run_match(args);
    ck_assert_msg(strstr(out, "Games ended by the rules (no legal move or a 7.2 draw): 4 of 4"),
                  "%s", out);
    ck_assert(strstr(out, "a: time losses 0, faults 0") != NULL);
    ck_assert(strstr(out, "b: time losses 0, faults 0") != NULL);
    // The last two lines are the score and the Elo difference.
    char *score = strstr(out, "Score of a vs b:");
    ck_assert(score != NULL);
    char *last = strrchr(out, '\n');
    *last = '\0';
    char *elo = strrchr(out, '\n');
    ck_assert(elo && strncmp(elo + 1, "Elo difference:", 15) == 0);
    FILE *f = fdopen(fd, "r");
    char line[256];
    int games = 0;
    while (fgets(line, sizeof line, f))
        games += strncmp(line, "[GameType \"25\"]", 15) == 0;
    fclose(f);
    unlink(pdn);
    ck_assert_int_eq(games, 4);
    free(out);
}
END_TEST

// The last "Score of" line of a match's output, into out.
static void last_score(const char *out, char *line, size_t len)
{
    const char *p = NULL;
    for (const char *q = out; (q = strstr(q, "Score of ")) != NULL; q++)
        p = q;
    ck_assert_msg(p != NULL, "no score in\n%s", out);
    size_t n = strcspn(p, "\n");
    snprintf(line, len, "%.*s", (int)n, p);
}

// -resume: a match whose PDN lost two games (as a stopped run would) plays only those two and
// ends with the score of the whole match played at once (fixed depth: the same games).
START_TEST(test_match_resume)
{
    const char *damka = getenv("DAMKA_BIN");
    ck_assert(damka != NULL);
    char whole[256], cut[256], args[1536], want[256], got[256];
    snprintf(whole, sizeof whole, "/tmp/damka-resume-%ld-whole.pdn", (long)getpid());
    snprintf(cut, sizeof cut, "/tmp/damka-resume-%ld-cut.pdn", (long)getpid());
    unlink(whole);
    const char *common =
        "-each depth=2 option.OwnBook=false -openings file=book/openings/fmjd-64.txt "
        "-games 6 -seed 3";
    snprintf(args, sizeof args, "-engine cmd=%s name=a -engine cmd=%s name=b %s -pdnout %s", damka,
             damka, common, whole);
    char *out = run_match(args);
    last_score(out, want, sizeof want);
    free(out);
    // The PDN without games 2 and 5.
    FILE *in = fopen(whole, "r"), *o = fopen(cut, "w");
    ck_assert(in && o);
    static char game[1 << 16];
    size_t len = 0;
    char line[4096];
    bool skip = false;
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "[Event ", 7) == 0) {
            if (!skip)
                fwrite(game, 1, len, o);
            len = 0;
        }
        if (strncmp(line, "[Round ", 7) == 0)
            skip = strcmp(line, "[Round \"2\"]\n") == 0 || strcmp(line, "[Round \"5\"]\n") == 0;
        len += (size_t)snprintf(game + len, sizeof game - len, "%s", line);
    }
    if (!skip)
        fwrite(game, 1, len, o);
    fclose(in);
    fclose(o);
    snprintf(args, sizeof args, "-engine cmd=%s name=a -engine cmd=%s name=b %s -pdnout %s -resume",
             damka, damka, common, cut);
    out = run_match(args);
    ck_assert_msg(strstr(out, "Resumed from ") && strstr(out, "4 games already played, 2 to play"),
                  "%s", out);
    ck_assert_msg(strstr(out, "Finished game 2 ") && strstr(out, "Finished game 5 ") &&
                      !strstr(out, "Finished game 1 "),
                  "%s", out);
    last_score(out, got, sizeof got);
    ck_assert_str_eq(got, want);
    free(out);
    // A PDN of another match is refused.
    snprintf(args, sizeof args,
             "-engine cmd=%s name=x -engine cmd=%s name=y %s -pdnout %s -resume 2>&1; true", damka,
             damka, common, cut);
    out = run_match(args);
    ck_assert_msg(strstr(out, "is not one of this match"), "%s", out);
    free(out);
    unlink(whole);
    unlink(cut);
}
END_TEST

START_TEST(test_match_stops_on_sigterm)
{
    // SIGTERM after the first game: no new game starts, the one being played finishes without
    // a fault (the engines are not killed), and the summary comes as at the end of a match.
    const char *bin = getenv("DAMKA_MATCH"), *damka = getenv("DAMKA_BIN");
    ck_assert(bin && damka);
    char engine[512];
    snprintf(engine, sizeof engine, "cmd=%s", damka);
    int fds[2];
    ck_assert(pipe(fds) == 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execl(bin, bin, "-starttime", "120", "-engine", engine, "name=a", "-engine", engine,
              "name=b", "-each", "depth=3", "-games", "1000", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    ck_assert(f != NULL);
    char line[512], all[1 << 14] = "";
    size_t len = 0;
    bool signalled = false;
    while (fgets(line, sizeof line, f)) {
        len += (size_t)snprintf(all + len, sizeof all - len, "%s", line);
        ck_assert(len < sizeof all);
        if (!signalled && strncmp(line, "Finished game 1 ", 16) == 0) {
            ck_assert(kill(pid, SIGTERM) == 0);
            signalled = true;
        }
    }
    fclose(f);
    int status;
    ck_assert(waitpid(pid, &status, 0) == pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", all);
    ck_assert(signalled);
    int games;
    const char *stop = strstr(all, "Interrupted: stopped after ");
    ck_assert_msg(stop && sscanf(stop, "Interrupted: stopped after %d of 1000", &games) == 1, "%s",
                  all);
    ck_assert_int_ge(games, 1);
    ck_assert_int_le(games, 3); // at most the game that was being played when the signal came
    ck_assert_msg(strstr(all, "a: time losses 0, faults 0") &&
                      strstr(all, "b: time losses 0, faults 0"),
                  "%s", all);
    ck_assert(strstr(all, "Elo difference:") != NULL);
}
END_TEST

START_TEST(test_match_hub_dialect)
{
    // The same engine driven through the Hub dialect on both sides plays whole games.
    const char *damka = getenv("DAMKA_BIN");
    char args[1024];
    snprintf(args, sizeof args,
             "-engine cmd=%s name=a proto=hub -engine cmd=%s name=b proto=hub option.hash=8 "
             "-each depth=4 -games 2 -openings file=%s/../book/openings/3ply.txt start=7",
             damka, damka, DATA_DIR "/..");
    char *out = run_match(args);
    ck_assert_msg(strstr(out, "Games ended by the rules (no legal move or a 7.2 draw): 2 of 2"),
                  "%s", out);
    ck_assert(strstr(out, "faults 0") != NULL);
    free(out);
}
END_TEST

Suite *suite_match(void)
{
    Suite *s = suite_create("match");
    TCase *pieces = tcase_create("pieces");
    tcase_add_test(pieces, test_clock_parse_and_charge);
    tcase_add_test(pieces, test_stats_against_hand_values);
    tcase_add_test(pieces, test_pdn_writer);
    tcase_add_test(pieces, test_openings_reader);
    tcase_add_test(pieces, test_openings_fmjd_table);
    tcase_add_test(pieces, test_adjudication_rules);
    suite_add_tcase(s, pieces);
    TCase *e2e = tcase_create("matches");
    tcase_set_timeout(e2e, 120);
    tcase_add_loop_test(e2e, test_match_fake_engines, 0, (int)(sizeof FAULTS / sizeof FAULTS[0]));
    tcase_add_test(e2e, test_match_damka_vs_damka);
    tcase_add_test(e2e, test_match_hub_dialect);
    tcase_add_test(e2e, test_match_stops_on_sigterm);
    tcase_add_test(e2e, test_match_resume);
    suite_add_tcase(s, e2e);
    return s;
}
