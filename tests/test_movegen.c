// SPDX-License-Identifier: MIT
// Move generator tests: start-position perft and the rule positions of tests/data/positions.txt
// (every listed depth, every move with its resulting position and sub-perft).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "test_suites.h"

void test_fen(const char *fen, Board *out)
{
    char err[128] = "";
    ck_assert_msg(notation_parse_fen(fen, out, err, sizeof err), "FEN %s: %s", fen, err);
}

uint64_t test_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

// perft.md, start position, depths 1-9 (deeper ones run in `make perft`).
static const uint64_t START_PERFT[] = {0, 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586};

START_TEST(test_perft_start)
{
    Board b;
    board_start(&b);
    ck_assert_uint_eq(movegen_perft(&b, _i, true), START_PERFT[_i]);
}
END_TEST

START_TEST(test_perft_start_without_bulk)
{
    // The bulk-counting perft and the plain one (every leaf played) must agree.
    Board b;
    board_start(&b);
    ck_assert_uint_eq(movegen_perft(&b, _i, false), START_PERFT[_i]);
}
END_TEST

// One block of positions.txt.
typedef struct RulePosition {
    char id[8];
    char fen[128];
    char alg[160];
    int nmoves;
    char move_result[16][160]; // FEN after each listed move
    uint64_t move_sub[16][3];  // perft 1..3 after it
    int ndepth;
    int depth[8];
    uint64_t count[8];
} RulePosition;

static int load_positions(RulePosition *out, int max)
{
    FILE *f = fopen(DATA_DIR "/positions.txt", "r");
    ck_assert_msg(f != NULL, "cannot open %s", DATA_DIR "/positions.txt");
    char line[512];
    int n = 0;
    RulePosition *p = NULL;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "id ", 3) == 0) {
            ck_assert_int_lt(n, max);
            p = &out[n++];
            memset(p, 0, sizeof *p);
            snprintf(p->id, sizeof p->id, "%.7s", line + 3);
        } else if (p && strncmp(line, "fen ", 4) == 0) {
            snprintf(p->fen, sizeof p->fen, "%.127s", line + 4);
        } else if (p && strncmp(line, "alg ", 4) == 0) {
            snprintf(p->alg, sizeof p->alg, "%.159s", line + 4);
        } else if (p && strncmp(line, "move ", 5) == 0) {
            const char *r = strstr(line, "result="), *s = strstr(line, "sub=");
            ck_assert(r && s && p->nmoves < 16);
            sscanf(r + 7, "%159s", p->move_result[p->nmoves]);
            uint64_t *sub = p->move_sub[p->nmoves];
            ck_assert_int_eq(sscanf(s + 4, "%lu,%lu,%lu", &sub[0], &sub[1], &sub[2]), 3);
            p->nmoves++;
        } else if (p && strncmp(line, "depth ", 6) == 0) {
            ck_assert_int_lt(p->ndepth, 8);
            sscanf(line + 6, "%d %lu", &p->depth[p->ndepth], &p->count[p->ndepth]);
            p->ndepth++;
        }
    }
    fclose(f);
    return n;
}

START_TEST(test_rule_positions)
{
    static RulePosition pos[32];
    int n = load_positions(pos, 32);
    ck_assert_int_eq(n, 19);
    for (int i = 0; i < n; i++) {
        const RulePosition *p = &pos[i];
        Board b, alg;
        test_fen(p->fen, &b);
        test_fen(p->alg, &alg);
        ck_assert_msg(board_equal(&b, &alg), "%s: numeric and algebraic FEN differ", p->id);
        for (int d = 0; d < p->ndepth; d++)
            ck_assert_msg(movegen_perft(&b, p->depth[d], true) == p->count[d],
                          "%s perft(%d) want %lu", p->id, p->depth[d], p->count[d]);

        // The move list is exactly the listed moves: same count, and each listed result
        // position is reached by one generated move, with the listed sub-perfts.
        MoveList list;
        movegen_all(&b, &list);
        ck_assert_msg(list.count == p->nmoves, "%s: %d moves, want %d", p->id, list.count,
                      p->nmoves);
        for (int m = 0; m < p->nmoves; m++) {
            int hits = 0;
            for (int k = 0; k < list.count; k++) {
                Board child = b;
                char fen[FEN_MAX];
                board_play(&child, &list.moves[k]);
                notation_fen(&child, fen, sizeof fen);
                if (strcmp(fen, p->move_result[m]) != 0)
                    continue;
                hits++;
                for (int d = 1; d <= 3; d++)
                    ck_assert_msg(movegen_perft(&child, d, true) == p->move_sub[m][d - 1],
                                  "%s after %s: perft(%d)", p->id, fen, d);
            }
            ck_assert_msg(hits == 1, "%s: result %s reached by %d moves", p->id, p->move_result[m],
                          hits);
        }
    }
}
END_TEST

START_TEST(test_count_matches_list)
{
    // movegen_count (bulk counting) equals the list length along random games.
    uint64_t seed = 12345;
    for (int game = 0; game < 200; game++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 200; ply++) {
            MoveList list;
            int n = movegen_all(&b, &list);
            ck_assert_int_eq(movegen_count(&b), n);
            if (n == 0)
                break;
            board_play(&b, &list.moves[test_rand(&seed) % (uint64_t)n]);
        }
    }
}
END_TEST

START_TEST(test_zobrist_incremental)
{
    // Along random games the key kept by board_play equals the key computed from scratch.
    uint64_t seed = 777;
    for (int game = 0; game < 300; game++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 300; ply++) {
            MoveList list;
            int n = movegen_all(&b, &list);
            if (n == 0)
                break;
            board_play(&b, &list.moves[test_rand(&seed) % (uint64_t)n]);
            ck_assert_uint_eq(b.key, board_compute_key(&b));
            ck_assert(board_is_ok(&b));
        }
    }
}
END_TEST

Suite *suite_movegen(void)
{
    Suite *s = suite_create("movegen");
    TCase *tc = tcase_create("perft");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_perft_start, 1, 10);
    tcase_add_loop_test(tc, test_perft_start_without_bulk, 1, 7);
    tcase_add_test(tc, test_rule_positions);
    tcase_add_test(tc, test_count_matches_list);
    tcase_add_test(tc, test_zobrist_incremental);
    suite_add_tcase(s, tc);
    return s;
}
