// SPDX-License-Identifier: MIT
// Tests of the game-end rules (7.2), the evaluation, the transposition table and the search.
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "board.h"
#include "engine.h"
#include "eval.h"
#include "movegen.h"
#include "movepick.h"
#include "notation.h"
#include "options.h"
#include "rules.h"
#include "search.h"
#include "tables.h"
#include "test_suites.h"
#include "timeman.h"
#include "tt.h"
#include "util.h"

// ---- Rules 7.2 --------------------------------------------------------------------------------

// Plays king moves back and forth n times (each a ply) updating counters and keys.
static GameResult shuffle_kings(const char *fen, const char *const *cycle, int ncycle, int plies,
                                int *ended_at)
{
    Board b;
    test_fen(fen, &b);
    static Key keys[4096];
    DrawCounters c = {0, 0, 0};
    int n = 0;
    for (int i = 0; i < plies; i++) {
        GameResult r = rules_game_result(&b, c, keys, n);
        if (r != GAME_ONGOING) {
            *ended_at = i;
            return r;
        }
        Move m;
        char err[128];
        ck_assert_msg(notation_parse_move(&b, cycle[i % ncycle], MOVE_FMT_ALG, &m, err, sizeof err),
                      "%s: %s", cycle[i % ncycle], err);
        keys[n++] = b.key;
        c = rules_after_move(c, &b, &m);
        board_play(&b, &m);
    }
    *ended_at = plies;
    return rules_game_result(&b, c, keys, n);
}

START_TEST(rule_7_2_3_threefold_repetition)
{
    // Two kings each far from the other go back and forth: the start position comes back
    // after 4 plies and a third time after 8.
    static const char *const cycle[] = {"a1-b2", "a7-b8", "b2-a1", "b8-a7"};
    int at;
    GameResult r = shuffle_kings("W:WK29,21:BK5,12", cycle, 4, 40, &at);
    ck_assert_int_eq(r, GAME_DRAW_REPETITION);
    ck_assert_int_eq(at, 8);
}
END_TEST

START_TEST(rule_7_2_5_fifteen_moves_kings_only)
{
    // Eight kings (too many pieces for 7.2.6): only the kings-only count of 7.2.5 applies.
    Board b;
    test_fen("W:WK29,K30,K31,K32:BK1,K2,K3,K4", &b);
    DrawCounters c = {29, 29, 0};
    ck_assert_int_eq(rules_counter_draw(&b, c), GAME_ONGOING);
    c.reversible = 30;
    ck_assert_int_eq(rules_counter_draw(&b, c), GAME_DRAW_KINGS_ONLY);
    // A man move resets the count.
    Board m;
    test_fen("W:W21,K30:BK1,K2", &m);
    MoveList list;
    movegen_all(&m, &list);
    int man_moves = 0;
    for (int i = 0; i < list.count; i++)
        if (list.moves[i].from == 20) {
            DrawCounters after = rules_after_move((DrawCounters){25, 25, 0}, &m, &list.moves[i]);
            ck_assert_int_eq(after.reversible, 0);
            ck_assert_int_eq(after.balance, 26);
            man_moves++;
        }
    ck_assert_int_eq(man_moves, 1); // the man on square 21 (a3, on the edge) has one: a3-b4
}
END_TEST

START_TEST(rule_7_2_4_three_kings_against_one)
{
    Board b;
    test_fen("W:WK1,K2,K3:BK20", &b); // lone king off the long diagonal
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 29, 0}), GAME_ONGOING);
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 30, 0}), GAME_DRAW_3K_VS_K);
    // A capture or promotion resets the count.
    test_fen("W:WK1,K2,K3,K4:BK20", &b); // four kings too
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 30, 0}), GAME_DRAW_3K_VS_K);
}
END_TEST

START_TEST(rule_7_2_6_balance_unchanged)
{
    Board b;
    test_fen("W:WK1,K2,10:BK30,25", &b); // 5 pieces, both sides have kings
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 59, 0}), GAME_ONGOING);
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 60, 0}), GAME_DRAW_BALANCE);
    test_fen("W:WK1,K2,10,11:BK30,25,26", &b); // 7 pieces: 60 moves
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 119, 0}), GAME_ONGOING);
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 120, 0}), GAME_DRAW_BALANCE);
    test_fen("W:W5,10:BK30,25", &b); // White has no king: the rule does not apply
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 200, 0}), GAME_ONGOING);
}
END_TEST

// Plays text on b, updating the counters.
static DrawCounters play_counted(Board *b, DrawCounters c, const char *text)
{
    Move m;
    char err[128];
    ck_assert_msg(notation_parse_move(b, text, MOVE_FMT_ALG, &m, err, sizeof err), "%s: %s", text,
                  err);
    c = rules_after_move(c, b, &m);
    board_play(b, &m);
    return c;
}

START_TEST(rule_7_2_7_lone_king_on_long_diagonal)
{
    Board b;
    test_fen("W:WK1,K2,K3:BK22", &b); // c3 is on a1-h8
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 9, 9}), GAME_ONGOING);
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 10, 10}), GAME_DRAW_DIAGONAL);
    // The 5 moves count from when the lone king came to the diagonal, not from the capture
    // that made the balance: a king that steps onto it late can still be caught there.
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 20, 0}), GAME_ONGOING);
    test_fen("W:WK1,10,11:BK22", &b); // a king and two men
    ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 10, 10}), GAME_DRAW_DIAGONAL);
    // The count starts when the lone king arrives, goes on while it stays, restarts when it
    // leaves.
    test_fen("B:WK30,K31,K32:BK20", &b); // kings c1 e1 g1 against h4
    DrawCounters c = {0, 12, 0};
    c = play_counted(&b, c, "h4-f6"); // onto a1-h8
    ck_assert_int_eq(c.diagonal, 0);
    ck_assert_int_eq(c.balance, 13);
    c = play_counted(&b, c, "c1-d2");
    ck_assert_int_eq(c.diagonal, 1);
    c = play_counted(&b, c, "f6-g7"); // along it
    ck_assert_int_eq(c.diagonal, 2);
    c = play_counted(&b, c, "d2-c1");
    c = play_counted(&b, c, "g7-f8"); // off it
    ck_assert_int_eq(c.diagonal, 0);
}
END_TEST

START_TEST(rule_7_2_8_small_endings)
{
    static const char *const fens[] = {"W:WK1,K2:BK20", "W:WK1,10:BK20", "B:WK1:BK20"};
    for (int i = 0; i < 3; i++) {
        Board b;
        test_fen(fens[i], &b);
        ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 9, 0}), GAME_ONGOING);
        ck_assert_int_eq(rules_counter_draw(&b, (DrawCounters){0, 10, 0}), GAME_DRAW_SMALL);
    }
}
END_TEST

START_TEST(rule_7_2_no_move_is_a_loss)
{
    Board b;
    test_fen("W:W29:B22,25", &b);
    ck_assert_int_eq(rules_game_result(&b, (DrawCounters){0, 0, 0}, NULL, 0), GAME_LOSS);
}
END_TEST

// ---- Evaluation ------------------------------------------------------------------------------

START_TEST(test_eval_drawn_endings_near_zero)
{
    Board b;
    test_fen("W:WK1,K2:BK20", &b);
    ck_assert_int_lt(abs(eval_evaluate(eval_builtin(), &b)), 40);
    test_fen("W:WK1,K2,K3:BK22", &b); // lone king on the long diagonal
    int on_diagonal = eval_evaluate(eval_builtin(), &b);
    ck_assert_int_lt(abs(on_diagonal), 60);
    EvalFeatures f;
    eval_features(&b, &f);
    ck_assert(f.drawish);
    // Off the diagonal: not one of the known draws, so not scaled toward 0 (scaled, it would
    // be a sixteenth of itself, under 10), an advantage above the drawn bounds and above the
    // same kings against a king on the diagonal. Its learned value follows how such games
    // ended in self-play, where the lone king often reaches the long diagonal: about two men
    // in round 2, 128 in round 3, 99 in round 5, 80 in round 6 (a man is 180 to 200 there).
    test_fen("W:WK1,K2,K3:BK20", &b);
    eval_features(&b, &f);
    ck_assert(!f.drawish);
    int off_diagonal = eval_evaluate(eval_builtin(), &b);
    ck_assert_int_gt(off_diagonal, 40);
    ck_assert_int_gt(off_diagonal, on_diagonal + 40);
    // A clearly won material balance (six men against two, either side to move) scores as a
    // win: more than three men.
    test_fen("W:W21,22,23,24,25,26:B1,2", &b);
    ck_assert_int_gt(eval_evaluate(eval_builtin(), &b), 300);
    test_fen("B:W21,22,23,24,25,26:B1,2", &b);
    ck_assert_int_lt(eval_evaluate(eval_builtin(), &b), -300);
}
END_TEST

// ---- Transposition table ---------------------------------------------------------------------

START_TEST(test_tt_store_probe)
{
    TT tt;
    tt_init(&tt);
    ck_assert(tt_resize(&tt, 1));
    TTData d;
    ck_assert(!tt_probe(&tt, 0x1234567890ULL, &d));
    tt_store(&tt, 0x1234567890ULL, 0x8123, -250, 17, 9, BOUND_LOWER);
    ck_assert(tt_probe(&tt, 0x1234567890ULL, &d));
    ck_assert_uint_eq(d.move, 0x8123);
    ck_assert_int_eq(d.score, -250);
    ck_assert_int_eq(d.eval, 17);
    ck_assert_int_eq(d.depth, 9);
    ck_assert_int_eq(d.bound, BOUND_LOWER);
    tt_clear(&tt, 2);
    ck_assert(!tt_probe(&tt, 0x1234567890ULL, &d));
    // hashfull: permille of the sampled entries written in this search.
    ck_assert_int_eq(tt_hashfull(&tt), 0);
    for (Key k = 1; k <= tt.bucket_count * TT_BUCKET; k++)
        tt_store(&tt, k * 0x9E3779B97F4A7C15ULL, 0x8001, 1, 0, 1, BOUND_EXACT);
    ck_assert_int_gt(tt_hashfull(&tt), 500);
    tt_new_search(&tt);
    ck_assert_int_eq(tt_hashfull(&tt), 0); // entries of an older search do not count
    tt_free(&tt);
}
END_TEST

START_TEST(test_tt_torn_entry_rejected)
{
    TT tt;
    tt_init(&tt);
    ck_assert(tt_resize(&tt, 1));
    Key k = 0xABCDEF0123ULL;
    tt_store(&tt, k, 0x8001, 5, 0, 3, BOUND_EXACT);
    // Simulate a torn write: the data word changes without its key word.
    TTEntry *e = tt.entries + (size_t)(k & (tt.bucket_count - 1)) * TT_BUCKET;
    atomic_store(&e->data, atomic_load(&e->data) ^ 0x10000ULL);
    TTData d;
    ck_assert(!tt_probe(&tt, k, &d));
    tt_free(&tt);
}
END_TEST

START_TEST(test_tt_resize_failure_keeps_table)
{
    TT tt;
    tt_init(&tt);
    ck_assert(tt_resize(&tt, 2));
    tt_store(&tt, 42, 0x8001, 5, 0, 3, BOUND_EXACT);
    ck_assert(!tt_resize(&tt, 0));
    ck_assert(!tt_resize(&tt, TT_MB_MAX + 1));
    TTData d;
    ck_assert(tt_probe(&tt, 42, &d));
    ck_assert_uint_eq(tt.megabytes, 2);
    tt_free(&tt);
}
END_TEST

// ---- Time management -------------------------------------------------------------------------

START_TEST(test_timeman_budget)
{
    // 1 s + 0.1 s with 30 ms overhead: about an eighteenth of the clock plus most of the
    // increment, and the hard limit never past a third of what is left.
    TimeInput in = timeman_uci_input(true, 1000, 100, 0, 0);
    in.overhead_ms = 30;
    TimeBudget b = timeman_budget(&in);
    ck_assert_int_ge(b.soft_ms, 115);
    ck_assert_int_le(b.soft_ms, 140);
    ck_assert_int_le(b.hard_ms, (1000 - 30) / 3);
    ck_assert_int_ge(b.hard_ms, b.soft_ms);
    // Almost no time left: think a millisecond, never past the clock.
    in = timeman_uci_input(true, 20, 0, 0, 0);
    in.overhead_ms = 30;
    b = timeman_budget(&in);
    ck_assert_int_eq(b.soft_ms, 1);
    ck_assert_int_le(b.hard_ms, 1);
    // Fixed time per move: all of it but the overhead.
    in = timeman_uci_input(false, 0, 0, 0, 500);
    in.overhead_ms = 30;
    b = timeman_budget(&in);
    ck_assert_int_eq(b.soft_ms, 470);
    ck_assert_int_eq(b.hard_ms, 470);
    // The last move before the time control may use what is left, less the overhead.
    in = timeman_uci_input(true, 3000, 0, 1, 0);
    in.overhead_ms = 30;
    b = timeman_budget(&in);
    ck_assert_int_le(b.hard_ms, 2970);
    ck_assert_int_ge(b.soft_ms, 2000);
    // A negative clock counts as 0: the move is played on (half) the increment.
    in = timeman_uci_input(true, -50, 100, 0, 0);
    in.overhead_ms = 30;
    b = timeman_budget(&in);
    ck_assert_int_ge(b.soft_ms, 1);
    ck_assert_int_le(b.hard_ms, 100);
    // Hub: the clock is time + inc (clients send it before the increment is added).
    in = timeman_hub_input(true, -413, 900, 0, 0);
    ck_assert(in.has_clock);
    ck_assert_int_eq(in.time_ms, 487);
    in.overhead_ms = 30;
    b = timeman_budget(&in);
    ck_assert_int_gt(b.soft_ms, 100);
    ck_assert_int_le(b.hard_ms, 487 - 30);
    // No clock: no limit.
    in = timeman_uci_input(false, 0, 0, 0, 0);
    in.overhead_ms = 30;
    b = timeman_budget(&in);
    ck_assert_int_eq(b.soft_ms, -1);
    ck_assert_int_eq(b.hard_ms, -1);
}
END_TEST

// ---- Search ----------------------------------------------------------------------------------

// Searches fen to depth with threads and returns the best move in UCI form.
static void search_fen(Engine *e, const char *fen, int depth, char *best, Score *score)
{
    char err[128];
    engine_new_game(e);
    ck_assert_msg(engine_set_position(e, fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err), "%s", err);
    EngineGo go;
    EngineResult r;
    engine_go_depth(&go, depth);
    ck_assert(engine_go(e, &go, NULL, NULL, NULL));
    engine_wait(e);
    engine_result(e, &r);
    ck_assert(r.has_best);
    notation_move(&r.best, MOVE_FMT_UCI, best, MOVE_TEXT_MAX);
    *score = r.score;
}

typedef struct Puzzle {
    const char *fen;
    int depth;
    const char *best; // the winning move(s) in UCI form, separated by spaces
    int min_score;    // the search must see at least this much (a win: >= SCORE_WIN_MIN)
    const char *what;
} Puzzle;

// Found by the engine in self-play positions and checked by hand.
static const Puzzle PUZZLES[] = {
    // h2-g3 gives a man (h4xf2 is forced), e1xg3, and after f6-g5 the double capture
    // h6xf4xd6 wins: a sacrifice that leads to a winning multi-capture.
    {"W:W12,18,22,28,29,30,31:B3,11,15,20,21", 12, "h2g3", SCORE_WIN_MIN, "sacrifice"},
    // Three black kings against a white king off the long diagonal: d2-a5 and e5-c3 both win
    // in 4 (every other move takes longer).
    {"B:WK2:BK14,K15,K26", 12, "d2a5 e5c3", SCORE_WIN_MIN, "three kings against one"},
    // A king and two men against two men: the king's quiet f6-c3 wins by force.
    {"W:WK11,19,21:B4,26", 12, "f6c3", SCORE_WIN_MIN, "king ending"},
    // Only the quiet g5-f6 wins (c5-b6 only draws): the man is promoted by force.
    {"W:W14,16:B12", 8, "g5f6", SCORE_WIN_MIN, "only quiet move"},
};

// True when move is one of the space-separated moves of list.
static bool is_one_of(const char *move, const char *list)
{
    size_t n = strlen(move);
    for (const char *s = list; (s = strstr(s, move)) != NULL; s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == '\0' || s[n] == ' '))
            return true;
    return false;
}

START_TEST(test_search_puzzles)
{
    Engine *e = engine_new();
    ck_assert(e != NULL);
    const Puzzle *p = &PUZZLES[_i];
    char best[MOVE_TEXT_MAX];
    Score score;
    search_fen(e, p->fen, p->depth, best, &score);
    ck_assert_msg(is_one_of(best, p->best), "%s: played %s, want %s (score %d)", p->what, best,
                  p->best, score);
    ck_assert_msg(score >= p->min_score, "%s: score %d, want >= %d", p->what, score, p->min_score);
    engine_free(e);
}
END_TEST

START_TEST(test_search_draw_rule_7_2_7)
{
    // Three white kings against a black king on the long diagonal, 9 plies after the balance
    // arose: rule 7.2.7 ends the game as a draw when Black keeps to the diagonal, so the search
    // must score 0 (without the rule, three kings against one would look winning).
    Engine *e = engine_new();
    ck_assert(e != NULL);
    static const char *const moves[] = {"d8-c7", "a1-b2", "c7-b6", "b2-a1", "b6-a5",
                                        "a1-b2", "f8-e7", "b2-a1", "e7-d8"};
    char err[128];
    engine_new_game(e);
    ck_assert_msg(
        engine_set_position(e, "W:WK2,K3,K12:BK29", moves, 9, MOVE_FMT_ALG, err, sizeof err), "%s",
        err);
    ck_assert_int_eq(engine_game_result(e), GAME_ONGOING);
    EngineGo go;
    EngineResult r;
    engine_go_depth(&go, 10);
    engine_go(e, &go, NULL, NULL, NULL);
    engine_wait(e);
    engine_result(e, &r);
    ck_assert(r.has_best);
    ck_assert_int_eq(r.score, 0);
    engine_free(e);
}
END_TEST

START_TEST(test_search_repetition_in_search)
{
    // White (a king and three men against a king and a man) is winning, but b2-a1 brings back a
    // position of the game's history: searched alone (searchmoves), that move scores a draw.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    static const char *const moves[] = {"a1-b2", "a7-b8", "b2-a1", "b8-a7", "a1-b2", "a7-b8"};
    char err[128];
    engine_new_game(e);
    ck_assert_msg(
        engine_set_position(e, "W:WK29,21,26,28:BK5,4", moves, 6, MOVE_FMT_ALG, err, sizeof err),
        "%s", err);
    EngineGo go;
    EngineResult r;
    engine_go_depth(&go, 8);
    engine_go(e, &go, NULL, NULL, NULL);
    engine_wait(e);
    engine_result(e, &r);
    ck_assert_int_gt(r.score, 100);
    ck_assert(engine_parse_move(e, "b2-a1", MOVE_FMT_ALG, &go.searchmoves[0], err, sizeof err));
    go.nsearchmoves = 1;
    engine_go(e, &go, NULL, NULL, NULL);
    engine_wait(e);
    engine_result(e, &r);
    ck_assert_int_eq(r.score, 0);
    // And a third occurrence in the game itself is the draw of rule 7.2.3.
    static const char *const more[] = {"a1-b2", "a7-b8", "b2-a1", "b8-a7",
                                       "a1-b2", "a7-b8", "b2-a1", "b8-a7"};
    ck_assert(
        engine_set_position(e, "W:WK29,21,26,28:BK5,4", more, 8, MOVE_FMT_ALG, err, sizeof err));
    ck_assert_int_eq(engine_game_result(e), GAME_DRAW_REPETITION);
    engine_free(e);
}
END_TEST

START_TEST(test_smp_same_forced_wins)
{
    // Four threads find the same winning moves as one thread. Four plies more than one thread
    // needs: helpers skip iterations others have completed, so at a given depth their move
    // order (and with it what reductions and pruning hide) differs from a single thread's, and
    // a depth-limited search stops when any thread completes the depth. When one thread first
    // saw the three-kings win at exactly its puzzle depth, 4 threads missed it in about 1 search
    // in 10 at that depth, and in none of 60 two plies deeper; yet a CI run under ASan (4
    // threads on 2 cores) once took a helper's depth-14 result that missed it (d2c1). Four
    // plies more cost little: the deepest of these searches takes about 200,000 nodes.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    ck_assert(engine_set_threads(e, 4));
    for (size_t i = 0; i < sizeof PUZZLES / sizeof PUZZLES[0]; i++) {
        char best[MOVE_TEXT_MAX];
        Score score;
        search_fen(e, PUZZLES[i].fen, PUZZLES[i].depth + 4, best, &score);
        ck_assert_msg(is_one_of(best, PUZZLES[i].best), "%s: 4 threads played %s", PUZZLES[i].what,
                      best);
        ck_assert_int_ge(score, PUZZLES[i].min_score);
    }
    engine_free(e);
}
END_TEST

// The last info line of a search, for test_smp_last_report_is_the_move_played.
static void keep_last_report(void *ctx, const SearchReport *r) { *(SearchReport *)ctx = *r; }

START_TEST(test_smp_last_report_is_the_move_played)
{
    // With 4 threads the move played often comes from a helper that completed a deeper
    // iteration than the main thread; the last info line must then be that helper's: its
    // depth, score and PV, the PV starting with the move played.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    ck_assert(engine_set_threads(e, 4));
    char err[128];
    for (int k = 0; k < 8; k++) {
        const Puzzle *p = &PUZZLES[k % (int)(sizeof PUZZLES / sizeof PUZZLES[0])];
        engine_new_game(e);
        ck_assert_msg(engine_set_position(e, p->fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err), "%s",
                      err);
        EngineGo go;
        EngineResult r;
        engine_go_depth(&go, p->depth);
        static SearchReport last;
        memset(&last, 0, sizeof last);
        engine_go(e, &go, keep_last_report, NULL, &last);
        engine_wait(e);
        engine_result(e, &r);
        ck_assert(r.has_best);
        ck_assert_int_gt(last.pvlen, 0);
        ck_assert_msg(last.pv[0].from == r.best.from && last.pv[0].to == r.best.to,
                      "%s: last info line is not about the move played", p->what);
        ck_assert_int_eq(last.depth, r.depth);
        ck_assert_int_eq(last.score, r.score);
        ck_assert_int_eq(r.has_ponder, last.pvlen > 1);
        // The result's PV is the last line's.
        ck_assert_int_eq(r.pvlen, last.pvlen);
        for (int i = 0; i < r.pvlen; i++)
            ck_assert(move_code(&r.pv[i]) == move_code(&last.pv[i]));
        if (r.has_ponder)
            ck_assert(last.pv[1].from == r.ponder.from && last.pv[1].to == r.ponder.to);
    }
    engine_free(e);
}
END_TEST

// True when no thread's breadcrumb is left in the shared table: each thread removes its mark
// when it leaves a node, a stopped search included, so none can mislead the next search.
static bool no_breadcrumbs(const Engine *e) { return engine_marked_crumbs(e) == 0; }

START_TEST(test_smp_thread_changes_and_legal_moves)
{
    // Threads 1 -> 4 -> 2 -> 1 between searches; every search returns a legal move.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    static const int counts[] = {1, 4, 2, 1};
    static const char *const fens[] = {"W:W21-32:B1-12",
                                       ("B:W17,21,22,23,24,26,27,29,30,31,32:"
                                        "B1,2,3,4,5,6,7,10,13,15,19"),
                                       "W:WK21,22,24,28:B13,18,23", "W:W5,K18,28:BK19"};
    for (int k = 0; k < 4; k++) {
        ck_assert(engine_set_threads(e, counts[k]));
        ck_assert_int_eq(engine_threads(e), counts[k]);
        for (int i = 0; i < 4; i++) {
            char best[MOVE_TEXT_MAX];
            Score score;
            search_fen(e, fens[i], 7, best, &score);
            Move m;
            char err[128];
            ck_assert_msg(engine_parse_move(e, best, MOVE_FMT_ALG, &m, err, sizeof err),
                          "%d threads, %s: %s", counts[k], fens[i], err);
            ck_assert_msg(no_breadcrumbs(e), "%d threads, %s", counts[k], fens[i]);
        }
    }
    ck_assert(!engine_set_threads(e, 0));
    ck_assert_int_eq(engine_threads(e), 1);
    engine_free(e);
}
END_TEST

START_TEST(test_smp_failed_thread_start)
{
    // A Threads change that cannot start its threads keeps a working pool: the threads that
    // ran before (and any started since) stay, and the next search ends. Before, a failed
    // restart could leave none and the next `go` waited forever.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    static const struct {
        int from, to, starts, left; // threads before and asked, starts that succeed, threads left
    } cases[] = {{1, 4, 0, 1}, {1, 4, 2, 3}, {3, 8, 0, 3}, {4, 2, 0, 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ck_assert(engine_set_threads(e, cases[k].from));
        engine_test_fail_threads(e, cases[k].starts);
        bool ok = engine_set_threads(e, cases[k].to);
        engine_test_fail_threads(e, -1);
        ck_assert_int_eq(ok, cases[k].left == cases[k].to);
        ck_assert_int_eq(engine_threads(e), cases[k].left);
        char best[MOVE_TEXT_MAX];
        Score score;
        search_fen(e, "W:W21-32:B1-12", 6, best, &score);
        Move m;
        char err[128];
        ck_assert_msg(engine_parse_move(e, best, MOVE_FMT_ALG, &m, err, sizeof err), "%s", err);
    }
    engine_free(e);
}
END_TEST

START_TEST(test_smp_stop_at_once)
{
    Engine *e = engine_new();
    ck_assert(e != NULL);
    ck_assert(engine_set_threads(e, 4));
    char err[128];
    ck_assert(engine_set_position(e, NULL, NULL, 0, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go;
    memset(&go, 0, sizeof go);
    go.infinite = true;
    ck_assert(engine_go(e, &go, NULL, NULL, NULL));
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    ck_assert(engine_is_searching(e));
    int64_t t0 = util_now_ms();
    engine_stop(e);
    ck_assert_int_lt(util_now_ms() - t0, 500);
    EngineResult r;
    engine_result(e, &r);
    ck_assert(r.has_best);
    ck_assert(no_breadcrumbs(e));
    engine_free(e);
}
END_TEST

START_TEST(test_node_limit_facade)
{
    // The node count of a node-limited search is the limit, or a few nodes more.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    for (int threads = 1; threads <= 2; threads++) {
        ck_assert(engine_set_threads(e, threads));
        EngineGo go;
        memset(&go, 0, sizeof go);
        go.nodes = 5000;
        ck_assert(engine_go(e, &go, NULL, NULL, NULL));
        engine_wait(e);
        EngineResult r;
        engine_result(e, &r);
        ck_assert(r.has_best);
        ck_assert_uint_ge(r.nodes, 5000);
        ck_assert_uint_le(r.nodes, 5000 + 8); // a thread may count a few before it sees stop
    }
    engine_free(e);
}
END_TEST

START_TEST(test_options_table)
{
    // Every row: its default applies and reads back; a value out of range is refused with a
    // reason and changes nothing; names are unique within a dialect.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    char err[ENGINE_ERR_MAX], text[OPTION_TEXT_MAX];
    for (int i = 0; i < options_count(); i++) {
        const Option *o = options_at(i);
        OptionDialect d = o->name[OPTION_UCI] ? OPTION_UCI : OPTION_HUB;
        for (int k = 0; k < 2; k++)
            if (o->name[k])
                ck_assert_ptr_eq(options_find((OptionDialect)k, o->name[k]), o);
        if (o->type == OPTION_BUTTON || o->type == OPTION_IGNORED || o->type == OPTION_STRING)
            continue;
        options_value_text(o, o->def, text, sizeof text);
        ck_assert_msg(options_set(e, o, d, text, err, sizeof err), "%s: %s", o->name[d], err);
        if (o->type != OPTION_COMBO || o->choices[1])
            ck_assert_int_eq(o->get(e), o->def);
        int64_t before = o->get(e);
        ck_assert(!options_set(e, o, d, "1000000000000", err, sizeof err));
        ck_assert_msg(strstr(err, o->name[d]) != NULL, "%s", err);
        ck_assert(!options_set(e, o, d, NULL, err, sizeof err));
        ck_assert_int_eq(o->get(e), before);
    }
    // A refused allocation keeps the table.
    const Option *hash = options_find(OPTION_UCI, "hash");
    ck_assert(hash != NULL);
    ck_assert(!options_set(e, hash, OPTION_UCI, "65536", err, sizeof err) ||
              engine_hash(e) == 65536);
    ck_assert(options_set(e, hash, OPTION_UCI, "8", err, sizeof err));
    ck_assert_int_eq(engine_hash(e), 8);
    ck_assert_int_eq(engine_hash_log2(e), 19); // 2^19 entries of 16 bytes
    engine_free(e);
}
END_TEST

START_TEST(test_bench_deterministic)
{
    // The same node count twice in one process (the bench signature is reproducible).
    FILE *null = fopen("/dev/null", "w");
    ck_assert(null != NULL);
    uint64_t a = 0, b = 0;
    ck_assert_int_eq(bench_run(null, 7, 1, 4, &a), 0);
    ck_assert_int_eq(bench_run(null, 7, 1, 4, &b), 0);
    fclose(null);
    ck_assert_uint_gt(a, 10000);
    ck_assert_uint_eq(a, b);
}
END_TEST

// UCI_Elo picks the highest level whose measured Elo does not pass it; without
// UCI_LimitStrength the Skill Level counts; Hub handicaps are levels; out of range is refused.
START_TEST(test_levels_by_elo)
{
    Engine *e = engine_new();
    ck_assert(e != NULL);
    ck_assert_int_eq(engine_playing_level(e), SKILL_FULL);
    ck_assert(engine_set_skill(e, 7));
    ck_assert_int_eq(engine_playing_level(e), 7);
    ck_assert(engine_set_limit_strength(e, 1));
    static const struct {
        int elo, level;
    } cases[] = {{ENGINE_ELO_MIN, 0}, {1189, 4},  {1190, 5},
                 {1571, 9},           {1572, 10}, {2280, 17},
                 {2281, 18},          {2399, 19}, {ENGINE_ELO_MAX, SKILL_FULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert(engine_set_elo(e, cases[i].elo));
        ck_assert_msg(engine_playing_level(e) == cases[i].level, "Elo %d: level %d, want %d",
                      cases[i].elo, engine_playing_level(e), cases[i].level);
    }
    for (int l = 0; l < SKILL_FULL; l++)
        ck_assert_int_lt(engine_level_elo(l), engine_level_elo(l + 1));
    ck_assert(!engine_set_elo(e, ENGINE_ELO_MIN - 1));
    ck_assert(!engine_set_elo(e, ENGINE_ELO_MAX + 1));
    ck_assert(!engine_set_skill(e, SKILL_FULL + 1));
    ck_assert(engine_set_handicap(e, 2));
    ck_assert_int_eq(engine_playing_level(e), 10); // handicap sets a level, not an Elo
    ck_assert(!engine_set_handicap(e, ENGINE_HANDICAP_MAX + 1));
    engine_free(e);
}
END_TEST

Suite *suite_engine(void)
{
    Suite *s = suite_create("engine");
    TCase *rules = tcase_create("rules-7.2");
    tcase_add_test(rules, rule_7_2_3_threefold_repetition);
    tcase_add_test(rules, rule_7_2_4_three_kings_against_one);
    tcase_add_test(rules, rule_7_2_5_fifteen_moves_kings_only);
    tcase_add_test(rules, rule_7_2_6_balance_unchanged);
    tcase_add_test(rules, rule_7_2_7_lone_king_on_long_diagonal);
    tcase_add_test(rules, rule_7_2_8_small_endings);
    tcase_add_test(rules, rule_7_2_no_move_is_a_loss);
    suite_add_tcase(s, rules);
    TCase *levels = tcase_create("levels");
    tcase_add_test(levels, test_levels_by_elo);
    suite_add_tcase(s, levels);
    TCase *ev = tcase_create("eval-tt");
    tcase_add_test(ev, test_eval_drawn_endings_near_zero);
    tcase_add_test(ev, test_tt_store_probe);
    tcase_add_test(ev, test_tt_torn_entry_rejected);
    tcase_add_test(ev, test_tt_resize_failure_keeps_table);
    tcase_add_test(ev, test_timeman_budget);
    suite_add_tcase(s, ev);
    TCase *se = tcase_create("search");
    tcase_set_timeout(se, 120);
    tcase_add_loop_test(se, test_search_puzzles, 0, (int)(sizeof PUZZLES / sizeof PUZZLES[0]));
    tcase_add_test(se, test_search_draw_rule_7_2_7);
    tcase_add_test(se, test_search_repetition_in_search);
    tcase_add_test(se, test_bench_deterministic);
    tcase_add_test(se, test_smp_same_forced_wins);
    tcase_add_test(se, test_smp_last_report_is_the_move_played);
    tcase_add_test(se, test_smp_thread_changes_and_legal_moves);
    tcase_add_test(se, test_smp_stop_at_once);
    tcase_add_test(se, test_smp_failed_thread_start);
    tcase_add_test(se, test_node_limit_facade);
    tcase_add_test(se, test_options_table);
    suite_add_tcase(s, se);
    return s;
}
