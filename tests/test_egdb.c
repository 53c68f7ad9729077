// SPDX-License-Identifier: MIT
// Tests of the endgame databases: the set of up to 4 pieces that make test builds (and checks
// value by value against the successors with damka-egdb --verify) is read here: its index,
// probing against the generator's values, known theory, corrupt files, and the search with it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egdb.h"
#include "engine.h"
#include "movegen.h"
#include "notation.h"
#include "test_suites.h"
#include "verdict.h"

static const char *egdb_dir(void)
{
    const char *d = getenv("EGDB_DIR");
    ck_assert_msg(d != NULL, "EGDB_DIR is not set (run through make test)");
    return d;
}

typedef struct Balances {
    EgdbMaterial list[64];
    int n;
} Balances;

static void add_balance(EgdbMaterial m, void *ctx)
{
    Balances *b = ctx;
    b->list[b->n++] = m;
}

static Balances up_to_four(void)
{
    Balances b = {.n = 0};
    for (int n = 2; n <= 4; n++)
        egdb_each_balance(n, add_balance, &b);
    return b;
}

START_TEST(test_egdb_index_round_trip)
{
    // Every index of every balance of up to 4 pieces that is a position maps back to itself.
    Balances all = up_to_four();
    ck_assert_int_eq(all.n, 41);
    uint64_t state = 7, positions = 0;
    for (int k = 0; k < all.n; k++) {
        uint64_t n = egdb_slice_size(all.list[k]);
        for (int t = 0; t < 3000; t++) {
            uint64_t idx = test_rand(&state) % n, back;
            Board b;
            if (!egdb_unindex(all.list[k], idx, &b))
                continue;
            ck_assert(board_is_ok(&b));
            ck_assert(egdb_index(&b, &back));
            ck_assert_uint_eq(back, idx);
            EgdbMaterial m = egdb_material_of(&b);
            ck_assert(memcmp(&m, &all.list[k], sizeof m) == 0);
            positions++;
        }
    }
    ck_assert_uint_gt(positions, 40000);
}
END_TEST

START_TEST(test_egdb_probe_matches_generator)
{
    // Probing returns the generator's value for random positions of every balance, in both
    // models (the loose one of a balance of kings alone is its strict table).
    char err[256];
    Egdb *db = egdb_open(egdb_dir(), 4, stderr, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(egdb_count(db), 41);
    ck_assert_int_eq(egdb_loose_count(db), 35); // the balances with men
    ck_assert_int_eq(egdb_max_pieces(db), 4);
    static EgdbCache cache;
    Balances all = up_to_four();
    uint64_t state = 11, probed = 0;
    for (int k = 0; k < all.n; k++) {
        EgdbMaterial m = all.list[k];
        uint64_t n = egdb_slice_size(m);
        for (int kind = 0; kind < EGDB_KINDS; kind++) {
            // The file the probe reads: with kings alone, the loose model is the strict file.
            EgdbKind file = m.wm + m.bm > 0 ? (EgdbKind)kind : EGDB_STRICT;
            uint8_t *values = malloc(n);
            char name[64], path[4200];
            egdb_file_name(m, file, name, sizeof name);
            snprintf(path, sizeof path, "%s/%s", egdb_dir(), name);
            bool old = true;
            ck_assert_msg(egdb_read(path, m, file, values, &old, err, sizeof err), "%s", err);
            ck_assert(!old);
            for (int t = 0; t < 400; t++) {
                uint64_t idx = test_rand(&state) % n;
                Board b;
                if (!egdb_unindex(m, idx, &b) || movegen_has_capture(&b))
                    continue;
                ck_assert_int_eq(egdb_probe(db, &b, (EgdbKind)kind, &cache), values[idx]);
                probed++;
            }
            free(values);
        }
    }
    ck_assert_uint_gt(probed, 10000);
    ck_assert_uint_gt(cache.hits + cache.misses, 5000);
    egdb_close(db);
}
END_TEST

// Known endings, each with the result theory gives it for the side to move and where it is
// published. The positions of up to 4 pieces are checked in `make test` (the set it builds);
// those of 5 and 6 by `make test-egdb`, on the full set `make egdb` (PIECES=6) writes in egdb/.
static const struct {
    const char *fen, *what;
    int result; // 1 win, 0 draw, -1 loss
} THEORY[] = {
    {"W:WKc1:BKf8", "one king against one king, neither attacked: draw", 0},
    {"B:WKc1:BKf8", "one king against one king, Black to move: draw", 0},
    {"W:WKa1:BKh8",
     "kings at both ends of the long diagonal: the side to move must step into "
     "the other's capture: lost",
     -1},
    {"W:WKc1,Ke1:BKd8", "two kings against one: draw", 0},
    {"B:WKc1,Ke1:BKd8", "two kings against one, the lone king to move: draw", 0},
    {"W:WKc1,Ke1,Kg1:BKh8", "three kings against a lone king on the long diagonal: draw", 0},
    {"B:WKc1,Ke1,Kg1:BKb2",
     "three kings against a lone king holding the long diagonal, it to "
     "move: draw",
     0},
    {"W:WKa1,Kc1,Ke1:BKf8",
     "Petrov's position (A. D. Petrov, 1827): three kings, one holding "
     "the long diagonal, catch the lone king within 15 moves",
     1},
    {"W:WKa1,Kc1,Ke1:BKc7",
     "Timoneda's position (1635), the same kings against a king on c7: "
     "won",
     1},
    {"W:WKc3,Kd6,Ke3:BKd8",
     "Petrov's triangle itself (kings c3, d6, e3): the lone king is "
     "caught within the 15 moves",
     1},
    {"W:WKa1,Kb2,Kc3:BKh4", "three kings holding the long diagonal: a win within 15 moves", 1},
    {"B:WKa1,Kb2,Kc3:BKh4", "the same with the lone king to move: lost within 15 moves", -1},
    {"B:WKa1,Kb2,Kc3:BKe7",
     "three kings on the long diagonal, the lone king in the middle of "
     "the board: lost",
     -1},
    {"W:WKh2,b4,c3:BKg1",
     "Sargin's position (D. I. Sargin, 1891): two men cut off on the "
     "lower double diagonal a7-g1, White to move wins",
     1},
    {"B:WKh2,b4,c3:BKg1", "Sargin's position with Black to move: a draw", 0},
    {"W:WKh2:Bf6,g5,h4",
     "a king cutting three men off on the upper double diagonal b8-h2 "
     "wins",
     1},
    {"W:WKf8:Ba5,b6,c7", "a king cutting three men off on the upper triple diagonal a3-f8 wins", 1},
    {"W:WKa1:Bb4,c5,d6",
     "a king cutting three men off only on the long diagonal: one breaks "
     "through, a draw",
     0},
    {"W:WKh2:Bf6,g5,h4,h6", "one king against four men, cut off on the long diagonal: won", 1},
    {"B:Wf4,g5,h4,h6:BKh8",
     "four men against a king on h8, the king to move: the men break "
     "through, a draw",
     0},
};

// Checks the endings of THEORY that have more than `above` pieces and at most what the
// databases in dir hold; returns how many it checked.
static int check_theory(const char *dir, int above)
{
    char err[256];
    Egdb *db = egdb_open(dir, 6, NULL, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    static EgdbCache cache;
    int checked = 0;
    for (int i = 0; i < (int)(sizeof THEORY / sizeof THEORY[0]); i++) {
        Board b;
        test_fen(THEORY[i].fen, &b);
        int n = egdb_pieces(egdb_material_of(&b));
        if (n <= above || n > egdb_max_pieces(db))
            continue;
        ck_assert(!movegen_has_capture(&b));
        int v = egdb_probe(db, &b, EGDB_STRICT, &cache);
        int got = egdb_is_win(v) ? 1 : egdb_is_loss(v) ? -1 : 0;
        ck_assert_msg(got == THEORY[i].result, "%s (%s): value %d", THEORY[i].what, THEORY[i].fen,
                      v);
        checked++;
    }
    egdb_close(db);
    return checked;
}

START_TEST(test_egdb_known_theory)
{
    // The test set holds up to 4 pieces: every ending of that size is checked.
    ck_assert_int_eq(check_theory(egdb_dir(), 0), 18);
}
END_TEST

START_TEST(test_egdb_known_theory_full)
{
    // The endings of 5 and 6 pieces, on the full set (make test-egdb).
    ck_assert_int_eq(check_theory(getenv("EGDB_FULL_DIR"), 4), 2);
}
END_TEST

// Copies the database file of balance m from the test set into dir, damaged by `how`.
static void damaged_copy(EgdbMaterial m, const char *dir, int how)
{
    char name[64], from[4200], to[4200];
    egdb_file_name(m, EGDB_STRICT, name, sizeof name);
    snprintf(from, sizeof from, "%s/%s", egdb_dir(), name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    FILE *f = fopen(from, "rb");
    ck_assert(f != NULL);
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ck_assert_uint_gt(n, 200);
    if (how == 1)
        buf[64 + 3] ^= 0x5A; // the block index
    else if (how == 4)
        buf[n - 3] ^= 0x5A; // a byte of the last block
    else if (how == 2)
        n -= 17; // truncated
    else if (how == 3)
        buf[8] = 99; // another version
    f = fopen(to, "wb");
    ck_assert(f != NULL);
    ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
    fclose(f);
}

START_TEST(test_egdb_corrupt_file_refused)
{
    // A file with a corrupt header or index, truncated or of another version is refused with
    // one line; the engine loads the rest and plays on.
    static const char *const why[] = {"", "corrupt", "truncated", "version"};
    char dir[] = "/tmp/damka-egdb-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    EgdbMaterial bad = {0, 2, 0, 1};
    static const EgdbMaterial two[] = {{1, 0, 1, 0}, {1, 0, 0, 1}, {0, 1, 1, 0}, {0, 1, 0, 1}};
    for (int k = 0; k < 4; k++) // every balance of 2 pieces, intact
        damaged_copy(two[k], dir, 0);
    damaged_copy(bad, dir, _i + 1);
    Engine *e = engine_new();
    char err[ENGINE_ERR_MAX];
    ck_assert(engine_set_egdb_path(e, dir, err, sizeof err));
    ck_assert_msg(strstr(err, why[_i + 1]) && strstr(err, "0m2k-0m1k") && !strchr(err, '\n'),
                  "warning: '%s'", err);
    ck_assert_int_eq(engine_egdb_loaded(e), 2); // the 2-piece set, not the 3-piece balance
    // It still plays, from a position of the refused balance.
    ck_assert(engine_set_position(e, "W:WKc1,Ke1:BKd8", NULL, 0, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go;
    engine_go_depth(&go, 6);
    ck_assert(engine_go(e, &go, NULL, NULL, NULL));
    engine_wait(e);
    EngineResult r;
    engine_result(e, &r);
    ck_assert(r.has_best);
    // A folder with only that file is refused whole, and the previous databases are kept.
    char only[] = "/tmp/damka-egdb-XXXXXX";
    ck_assert(mkdtemp(only) != NULL);
    damaged_copy(bad, only, _i + 1);
    ck_assert(!engine_set_egdb_path(e, only, err, sizeof err));
    ck_assert_msg(strstr(err, "no database file") != NULL, "%s", err);
    ck_assert_int_eq(engine_egdb_loaded(e), 2);
    engine_free(e);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, only);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

// The score of a depth-limited search of fen.
// A new engine with the test databases loaded (of up to 4 pieces).
static Engine *engine_with_db(void)
{
    Engine *e = engine_new();
    char err[ENGINE_ERR_MAX];
    ck_assert(e != NULL);
    ck_assert_msg(engine_set_egdb_path(e, egdb_dir(), err, sizeof err), "%s", err);
    return e;
}

static Score search_with_db(Engine *e, const char *fen, int depth)
{
    char err[ENGINE_ERR_MAX];
    ck_assert(engine_set_position(e, fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go;
    engine_go_depth(&go, depth);
    ck_assert(engine_go(e, &go, NULL, NULL, NULL));
    engine_wait(e);
    EngineResult r;
    engine_result(e, &r);
    ck_assert(r.has_best);
    return r.score;
}

// The strict budget counts plies since the last capture or promotion against 30 (10 under
// 7.2.8). Rules 7.2.4 and 7.2.8 count just that, and with kings alone 7.2.5 does too: there a
// value past its budget is a draw. With men a man's step resets 7.2.5 and 7.2.6 allows 60 or
// 120 plies: a strict win holds while both counters allow it; past them, and for a strict
// draw, the loose table decides: its draws (or its values past their budget, by 7.2.5's
// counter) are draws, the rest says nothing (a defender that took such wins for draws walked
// into them). A set with no loose tables takes a strict draw as it is.
static Verdict verdict2(const char *fen, int v, int loose, int reversible, int balance, int *left)
{
    Board b;
    char err[128];
    ck_assert_msg(notation_parse_fen(fen, &b, err, sizeof err), "%s", err);
    return verdict_of_value(&b, v, loose,
                            (DrawCounters){(uint16_t)reversible, (uint16_t)balance, 0}, left);
}

static Verdict verdict(const char *fen, int v, int reversible, int balance, int *left)
{
    return verdict2(fen, v, -1, reversible, balance, left);
}

START_TEST(test_egdb_verdict_under_the_counters)
{
    int win = EGDB_WIN + 12, loss = EGDB_LOSS + 12, left;
    const char *kings = "W:WKa1,Kc1:BKh8,Kf8", *men = "W:WKa1,c3:BKh8,f6",
               *men6 = "W:WKa1,c3,e3:BKh8,f6,d6", *no_kings = "W:Wc3,e3:Bf6",
               *small = "W:WKa1,c3:BKh8", *three_kings = "W:WKa1,Kc1,Ke1,c3:BKh8";
    ck_assert_int_eq(verdict(kings, win, 12, 12, &left), VERDICT_WIN);
    ck_assert_int_eq(left, 0);
    ck_assert_int_eq(verdict(kings, win, 13, 13, &left), VERDICT_DRAW);
    ck_assert_int_eq(verdict(kings, EGDB_DRAW, 0, 0, &left), VERDICT_DRAW);
    // Men and kings on both sides, 4 pieces: 7.2.5 by the man-move counter, 7.2.6 at 60.
    ck_assert_int_eq(verdict(men, loss, 5, 39, &left), VERDICT_LOSS);
    ck_assert_int_eq(left, 12 - 9);
    ck_assert_int_eq(verdict(men, win, 13, 13, &left), VERDICT_NOTHING);
    ck_assert_int_eq(verdict(men, win, 5, 43, &left), VERDICT_NOTHING);
    // 6 pieces: 7.2.6 at 120.
    ck_assert_int_eq(verdict(men6, win, 5, 100, &left), VERDICT_WIN);
    ck_assert_int_eq(verdict(men6, win, 5, 103, &left), VERDICT_NOTHING);
    // No kings: 7.2.6 does not apply, only 7.2.5.
    ck_assert_int_eq(verdict(no_kings, win, 12, 200, &left), VERDICT_WIN);
    // 7.2.8 and 7.2.4 count plies since a capture or promotion, men or not.
    ck_assert_int_eq(verdict(small, win, 0, 13, &left), VERDICT_DRAW);
    ck_assert_int_eq(verdict(small, win, 0, 12, &left), VERDICT_WIN);
    ck_assert_int_eq(verdict(three_kings, loss, 0, 13, &left), VERDICT_DRAW);
    ck_assert_int_eq(verdict(three_kings, EGDB_LOSS + EGDB_F_ANY, 0, 29, &left), VERDICT_LOSS);
    // With the loose table. A strict draw with men: the loose value decides, by 7.2.5's count.
    ck_assert_int_eq(verdict(men, EGDB_DRAW, 0, 0, &left), VERDICT_DRAW); // no loose table
    ck_assert_int_eq(verdict2(men, EGDB_DRAW, EGDB_DRAW, 0, 0, &left), VERDICT_DRAW);
    ck_assert_int_eq(verdict2(men, EGDB_DRAW, win, 12, 50, &left), VERDICT_NOTHING);
    ck_assert_int_eq(verdict2(men, EGDB_DRAW, loss, 13, 13, &left), VERDICT_DRAW);
    // A strict win past its budget: a loose win still in its budget is searched on.
    ck_assert_int_eq(verdict2(men, win, EGDB_WIN + 20, 13, 13, &left), VERDICT_NOTHING);
    ck_assert_int_eq(verdict2(men, win, win, 13, 13, &left), VERDICT_DRAW);
    ck_assert_int_eq(verdict2(men, win, win, 12, 12, &left), VERDICT_WIN); // strict first
    ck_assert_int_eq(left, 0);
    // Under 7.2.4/7.2.8 the loose budget counts from the last capture or promotion too.
    ck_assert_int_eq(verdict2(small, win, EGDB_WIN + 14, 0, 13, &left), VERDICT_NOTHING);
    ck_assert_int_eq(verdict2(small, win, EGDB_WIN + 14, 0, 15, &left), VERDICT_DRAW);
    // Kings alone: one model, so the strict value is the answer whatever the loose one says.
    ck_assert_int_eq(verdict2(kings, win, EGDB_WIN + 20, 13, 13, &left), VERDICT_DRAW);
}
END_TEST

// The loose model finds the wins the strict one misses: with a king and two men against a
// king the men need steps of their own, each of which resets 7.2.5 but not the strict
// counter. With both tables it is searched on (and found won); with the strict ones only (a
// set from before the loose tables) the search took it for a draw wherever it met it.
START_TEST(test_egdb_loose_model)
{
    static const char *fen = "W:WKf6,c3,e3:BKe1";
    Board b;
    test_fen(fen, &b);
    char err[ENGINE_ERR_MAX];
    Egdb *db = egdb_open(egdb_dir(), 4, NULL, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    static EgdbCache cache;
    ck_assert_int_eq(egdb_probe(db, &b, EGDB_STRICT, &cache), EGDB_DRAW);
    int loose = egdb_probe(db, &b, EGDB_LOOSE, &cache);
    ck_assert_msg(egdb_is_win(loose), "loose value %d", loose);
    int left;
    ck_assert_int_eq(verdict_judge(db, &b, (DrawCounters){0, 0, 0}, &cache, &left),
                     VERDICT_NOTHING);
    egdb_close(db);
    // A loose file is not taken for a strict one.
    char path[4200];
    uint8_t *values = malloc(egdb_slice_size(egdb_material_of(&b)));
    bool old;
    snprintf(path, sizeof path, "%s/2m1k-0m1k.dkl", egdb_dir());
    ck_assert(!egdb_read(path, egdb_material_of(&b), EGDB_STRICT, values, &old, err, sizeof err));
    ck_assert_msg(strstr(err, "other model") != NULL, "%s", err);
    free(values);
    // The search with the loose tables; the strict ones alone.
    Engine *e = engine_new();
    ck_assert_msg(engine_set_egdb_path(e, egdb_dir(), err, sizeof err), "%s", err);
    ck_assert_int_gt(search_with_db(e, fen, 8), 0);
    char dir[] = "/tmp/damka-egdb-XXXXXX", cmd[4400];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd, "cp %s/*.dkb %s/", egdb_dir(), dir);
    ck_assert_int_eq(system(cmd), 0);
    engine_free(e);
    db = egdb_open(dir, 4, NULL, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(egdb_loose_count(db), 0);
    ck_assert_int_eq(verdict_judge(db, &b, (DrawCounters){0, 0, 0}, &cache, &left), VERDICT_DRAW);
    egdb_close(db);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_egdb_corrupt_block_not_used)
{
    // A damaged block is found when a probe reads it (opening reads the header and index
    // only): that probe and every later one of its balance answer "not loaded", the other
    // balances still answer, and the engine plays on.
    char dir[] = "/tmp/damka-egdb-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    EgdbMaterial bad = {0, 2, 0, 1}, good = {0, 1, 0, 1};
    damaged_copy(good, dir, 0);
    damaged_copy(bad, dir, 4);
    char err[256];
    Egdb *db = egdb_open(dir, 3, NULL, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(egdb_count(db), 2);
    static EgdbCache cache;
    Board b;
    ck_assert(notation_parse_fen("W:WKc1,Ke1:BKd8", &b, err, sizeof err));
    ck_assert_int_ge(egdb_probe(db, &b, EGDB_STRICT, &cache), 0); // another block, intact
    ck_assert(!egdb_broken(db, bad));
    uint64_t n = egdb_slice_size(bad), idx = (n - 1) / EGDB_BLOCK * EGDB_BLOCK;
    while (!egdb_unindex(bad, idx, &b) || movegen_has_capture(&b))
        idx++;
    ck_assert_int_eq(egdb_probe(db, &b, EGDB_STRICT, &cache), -1); // the last block
    ck_assert(egdb_broken(db, bad));
    ck_assert(notation_parse_fen("W:WKc1,Ke1:BKd8", &b, err, sizeof err));
    ck_assert_int_eq(egdb_probe(db, &b, EGDB_STRICT, &cache), -1); // no more of that balance
    ck_assert(notation_parse_fen("W:WKc1:BKd8", &b, err, sizeof err));
    ck_assert_int_ge(egdb_probe(db, &b, EGDB_STRICT, &cache), 0);
    egdb_close(db);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static void keep_info(void *ctx, const EngineInfo *info) { *(EngineInfo *)ctx = *info; }

START_TEST(test_egdb_search_uses_it)
{
    // With the databases, three kings against one are scored as a database win at once, and
    // info lines count the probes.
    Engine *e = engine_with_db();
    char err[ENGINE_ERR_MAX];
    ck_assert_int_eq(engine_egdb_loaded(e), 4);
    ck_assert(
        engine_set_position(e, "W:WKa1,Kb2,Kc3:BKh4", NULL, 0, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go;
    engine_go_depth(&go, 4);
    static EngineInfo last;
    ck_assert(engine_go(e, &go, keep_info, NULL, &last));
    engine_wait(e);
    EngineResult r;
    engine_result(e, &r);
    ck_assert_int_ge(r.score, SCORE_EGDB_MIN);
    ck_assert_int_lt(r.score, SCORE_WIN_MIN);
    ck_assert_uint_gt(last.tbhits, 0);
    ck_assert_int_gt(engine_egdb_score(r.score), 0);
    // A drawn ending scores 0, a lost one as a database loss.
    ck_assert_int_eq(search_with_db(e, "W:WKc1,Ke1:BKd8", 6), 0);
    ck_assert_int_le(search_with_db(e, "B:WKa1,Kb2,Kc3:BKe7", 6), -SCORE_EGDB_MIN);
    // The win is claimed only while the game's counter allows it: the same position after
    // twelve quiet plies (no capture since) has used up more than its budget of 10.
    static const char *const shuffle[] = {"c3-d2", "e7-d8", "d2-c3", "d8-c7", "c3-d2", "c7-d6",
                                          "d2-c3", "d6-e7", "b2-a3", "e7-g5", "a3-b2", "g5-h4"};
    ck_assert_msg(
        engine_set_position(e, "W:WKa1,Kb2,Kc3:BKe7", shuffle, 12, MOVE_FMT_ALG, err, sizeof err),
        "%s", err);
    Board target;
    test_fen("W:WKa1,Kb2,Kc3:BKh4", &target);
    ck_assert(board_equal(engine_board(e), &target));
    ck_assert_int_eq(engine_game_result(e), GAME_ONGOING);
    engine_go_depth(&go, 6);
    ck_assert(engine_go(e, &go, NULL, NULL, NULL));
    engine_wait(e);
    engine_result(e, &r);
    ck_assert_msg(r.score < SCORE_EGDB_MIN, "a database win claimed past its budget: %d", r.score);
    // Without them, the same search does not see the win at this depth.
    ck_assert(engine_set_egdb_path(e, "", err, sizeof err));
    ck_assert_int_lt(search_with_db(e, "W:WKa1,Kb2,Kc3:BKh4", 4), SCORE_EGDB_MIN);
    engine_free(e);
}
END_TEST

// Searches the current game of e under go and returns the result.
static EngineResult search_result(Engine *e, const EngineGo *go)
{
    ck_assert(engine_go(e, go, NULL, NULL, NULL));
    engine_wait(e);
    EngineResult r;
    engine_result(e, &r);
    ck_assert(r.has_best);
    return r;
}

// A move of b with a one-minute clock: a game's move, not an analysis.
static EngineGo clock_go(void)
{
    EngineGo go;
    engine_go_depth(&go, 0);
    go.analysis = false;
    go.time.has_clock = true;
    go.time.time_ms = 60000;
    return go;
}

START_TEST(test_egdb_draws_score_zero)
{
    // Positions the databases call drawn score 0 at the root. A lone king on the long diagonal
    // against three pieces (7.2.7, which the databases leave to the search) stays a draw when
    // the databases say draw: that rule only adds draws.
    Engine *e = engine_with_db();
    char err[ENGINE_ERR_MAX];
    ck_assert_int_eq(search_with_db(e, "W:WK4:B12,19,K21", 7), 0);
    // A sample of drawn positions of 3 and 4 pieces with both sides to move.
    static EgdbCache cache;
    Egdb *db = egdb_open(egdb_dir(), 4, NULL, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    Balances all = up_to_four();
    uint64_t state = 5;
    int tested = 0;
    for (int k = 0; k < all.n; k++) {
        EgdbMaterial m = all.list[k];
        if (egdb_pieces(m) < 3)
            continue;
        uint64_t n = egdb_slice_size(m);
        for (int t = 0, found = 0; t < 2000 && found < 6; t++) {
            Board b;
            int left;
            if (!egdb_unindex(m, test_rand(&state) % n, &b) || movegen_has_capture(&b) ||
                movegen_count(&b) == 0 ||
                verdict_judge(db, &b, (DrawCounters){0, 0, 0}, &cache, &left) != VERDICT_DRAW)
                continue;
            char fen[FEN_MAX];
            notation_fen(&b, fen, sizeof fen);
            Score s = search_with_db(e, fen, 6);
            ck_assert_msg(s == 0, "%s, a database draw, scored %d", fen, s);
            found++;
            tested++;
        }
    }
    ck_assert_int_gt(tested, 100);
    egdb_close(db);
    engine_free(e);
}
END_TEST

START_TEST(test_egdb_forced_move_score)
{
    // A single legal move is played at once, after a short search that makes its score mean
    // something: a database draw reports 0, and a forced capture in the middle game reports
    // more than the first iteration's static score.
    Engine *e = engine_with_db();
    char err[ENGINE_ERR_MAX];
    static EgdbCache cache;
    Egdb *db = egdb_open(egdb_dir(), 4, NULL, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    EgdbMaterial m = {1, 0, 1, 2};
    uint64_t n = egdb_slice_size(m), state = 3;
    int tested = 0;
    for (int t = 0; t < 200000 && tested < 5; t++) {
        Board b;
        int left;
        if (!egdb_unindex(m, test_rand(&state) % n, &b) || movegen_has_capture(&b) ||
            movegen_count(&b) != 1 ||
            verdict_judge(db, &b, (DrawCounters){0, 0, 0}, &cache, &left) != VERDICT_DRAW)
            continue;
        char fen[FEN_MAX];
        notation_fen(&b, fen, sizeof fen);
        ck_assert(engine_set_position(e, fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err));
        EngineGo go = clock_go();
        EngineResult r = search_result(e, &go);
        ck_assert_msg(r.score == 0, "%s: forced move scored %d", fen, r.score);
        tested++;
    }
    ck_assert_int_eq(tested, 5);
    egdb_close(db);
    static const char *const moves[] = {"c3d4", "b6c5"}; // d4:b6 is forced
    ck_assert(engine_set_position(e, NULL, moves, 2, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go = clock_go();
    EngineResult r = search_result(e, &go);
    ck_assert_int_ge(r.depth, 2);
    engine_free(e);
}
END_TEST

START_TEST(test_egdb_short_win)
{
    // Three kings against a man: the databases call every king move a win, but a1-e5 (or
    // a1-b2) wins in three plies; a1-g7 gives a king away and wins the long way. The search
    // finds the short win, and at depths too shallow to see it never gives a piece away.
    Engine *e = engine_with_db();
    char err[ENGINE_ERR_MAX];
    const char *fen = "W:WKa1,Kc1,Ke1:Bh8";
    ck_assert(engine_set_position(e, fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err));
    EngineGo go;
    engine_go_depth(&go, 8);
    EngineResult r = search_result(e, &go);
    ck_assert_int_eq(engine_win_plies(r.score), 3);
    for (int depth = 1; depth <= 2; depth++) {
        engine_go_depth(&go, depth);
        r = search_result(e, &go);
        Board after = *engine_board(e);
        board_play(&after, &r.best);
        ck_assert_msg(!movegen_has_capture(&after), "depth %d gives a king away", depth);
    }
    engine_free(e);
}
END_TEST

Suite *suite_egdb(void)
{
    Suite *s = suite_create("egdb");
    TCase *tc = tcase_create("databases");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_egdb_index_round_trip);
    tcase_add_test(tc, test_egdb_probe_matches_generator);
    tcase_add_test(tc, test_egdb_known_theory);
    tcase_add_loop_test(tc, test_egdb_corrupt_file_refused, 0, 3);
    tcase_add_test(tc, test_egdb_corrupt_block_not_used);
    tcase_add_test(tc, test_egdb_verdict_under_the_counters);
    tcase_add_test(tc, test_egdb_loose_model);
    tcase_add_test(tc, test_egdb_search_uses_it);
    tcase_add_test(tc, test_egdb_draws_score_zero);
    tcase_add_test(tc, test_egdb_forced_move_score);
    tcase_add_test(tc, test_egdb_short_win);
    suite_add_tcase(s, tc);
    if (getenv("EGDB_FULL_DIR") != NULL) {
        TCase *full = tcase_create("full-set");
        tcase_set_timeout(full, 600);
        tcase_add_test(full, test_egdb_known_theory_full);
        suite_add_tcase(s, full);
    }
    return s;
}
