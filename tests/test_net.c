// SPDX-License-Identifier: MIT
// Tests of the evaluation network (net.h) with random weights: the sums kept move by move equal
// the sums computed from scratch along random games rich in captures and promotions; colour
// symmetry; the file round-trips, and a damaged, truncated or foreign file is refused with the
// weights kept.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "engine.h"
#include "movegen.h"
#include "net.h"
#include "test_suites.h"

// Weights small enough that no sum overflows, with every kind of value present.
static NetWeights *random_net(uint64_t seed)
{
    NetWeights *w = calloc(1, sizeof *w);
    ck_assert(w != NULL);
    for (int i = 0; i < NET_INPUTS; i++)
        for (int j = 0; j < NET_HIDDEN; j++)
            w->w1[i][j] = (int16_t)((int)(test_rand(&seed) % 33) - 16);
    for (int j = 0; j < NET_HIDDEN; j++)
        w->b1[j] = (int16_t)(test_rand(&seed) % 64);
    for (int b = 0; b < NET_BUCKETS; b++) {
        for (int j = 0; j < NET_L2; j++) {
            for (int i = 0; i < 2 * NET_HIDDEN; i++)
                w->w2[b][j][i] = (int8_t)((int)(test_rand(&seed) % 41) - 20);
            w->b2[b][j] = (int32_t)(test_rand(&seed) % 2001) - 1000;
            w->w3[b][j] = (int16_t)((int)(test_rand(&seed) % 61) - 30);
        }
        w->b3[b] = (int32_t)(test_rand(&seed) % 4001) - 2000;
    }
    w->output_scale = 100;
    return w;
}

// Random games from the start and from a position with kings: at every ply the incremental
// sums equal a refresh, and so does the score.
START_TEST(test_net_incremental_equals_refresh)
{
    NetWeights *w = random_net(7);
    static const char *const starts[] = {"W:W21-32:B1-12", "W:WK29,22,23,18:B5,9,10,K14,15",
                                         "B:W17,19,21,27,K30:B6,7,8,10,12,K3"};
    uint64_t seed = 11;
    int captures = 0, promotions = 0, plies = 0;
    for (int game = 0; game < 60; game++) {
        Board b;
        test_fen(starts[game % 3], &b);
        NetAccumulator acc, fresh;
        net_refresh(w, &b, &acc);
        for (int ply = 0; ply < 150; ply++) {
            MoveList list;
            movegen_all(&b, &list);
            if (list.count == 0)
                break;
            const Move *m = &list.moves[test_rand(&seed) % (uint64_t)list.count];
            captures += m->captured != 0;
            promotions += (m->flags & MOVE_PROMOTES) != 0;
            net_update(w, &b, m, &acc, &acc);
            board_play(&b, m);
            net_refresh(w, &b, &fresh);
            ck_assert_msg(memcmp(&acc, &fresh, sizeof acc) == 0, "game %d ply %d", game, ply);
            ck_assert_int_eq(net_evaluate(w, &b, &acc), net_evaluate(w, &b, &fresh));
            plies++;
        }
    }
    ck_assert_msg(captures > 500 && promotions > 20, "captures %d, promotions %d in %d plies",
                  captures, promotions, plies);
    free(w);
}
END_TEST

// A position and its mirror (turned around, colours swapped) score the same; the weights are
// not symmetric, so this holds only by the construction of the inputs.
START_TEST(test_net_colour_symmetry)
{
    NetWeights *w = random_net(3);
    uint64_t seed = 5;
    int differ = 0;
    Board b;
    test_fen("W:W21-32:B1-12", &b);
    int first = 0;
    for (int ply = 0; ply < 80; ply++) {
        Board m;
        board_mirror(&b, &m);
        NetAccumulator ab, am;
        net_refresh(w, &b, &ab);
        net_refresh(w, &m, &am);
        int s = net_evaluate(w, &b, &ab);
        ck_assert_int_eq(s, net_evaluate(w, &m, &am));
        if (ply == 0)
            first = s;
        differ += s != first;
        MoveList list;
        movegen_all(&b, &list);
        if (list.count == 0)
            break;
        board_play(&b, &list.moves[test_rand(&seed) % (uint64_t)list.count]);
    }
    ck_assert_msg(differ > 10, "the scores barely change (%d): the test would not see", differ);
    free(w);
}
END_TEST

// The build's SIMD path gives exactly the portable path's output, sums clipped at both ends
// included, in every bucket.
START_TEST(test_net_simd_equals_portable)
{
    NetWeights *w = random_net(21);
    // Extreme dense weights, where a saturating sum would show.
    for (int i = 0; i < 2 * NET_HIDDEN; i += 3)
        w->w2[1][0][i] = i % 2 ? 127 : -128;
    uint64_t seed = 99;
    int16_t own[NET_HIDDEN], enemy[NET_HIDDEN];
    int differ = 0;
    for (int k = 0; k < 2000; k++) {
        for (int i = 0; i < NET_HIDDEN; i++) {
            own[i] = (int16_t)((int)(test_rand(&seed) % 401) - 100);
            enemy[i] = (int16_t)(k % 7 == 0 ? 127 : (int)(test_rand(&seed) % 401) - 100);
        }
        int pieces = 1 + (int)(test_rand(&seed) % 24);
        int s = net_output(w, pieces, own, enemy);
        ck_assert_int_eq(s, net_output_portable(w, pieces, own, enemy));
        differ += s != 0;
    }
    ck_assert_int_gt(differ, 1000);
    printf("net: the %s path equals the portable one\n", net_simd());
    free(w);
}
END_TEST

static void read_all(const char *path, uint8_t **buf, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert(f != NULL);
    *buf = malloc(net_file_bytes() + 16);
    ck_assert(*buf != NULL);
    *n = fread(*buf, 1, net_file_bytes() + 16, f);
    fclose(f);
}

START_TEST(test_net_file)
{
    NetWeights *w = random_net(9), *back = random_net(1), *kept = random_net(1);
    char path[] = "/tmp/damka-net-XXXXXX", err[NET_ERR_MAX];
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    ck_assert_msg(net_save_file(path, w, err, sizeof err), "%s", err);
    ck_assert_msg(net_load_file(path, back, err, sizeof err), "%s", err);
    ck_assert(memcmp(w, back, sizeof *w) == 0);
    uint8_t *buf;
    size_t n;
    read_all(path, &buf, &n);
    ck_assert_uint_eq(n, net_file_bytes());
    // Each damage is refused with its reason, and the weights given are left as they were.
    struct {
        size_t at, len;
        uint8_t value;
        const char *why;
    } damage[] = {{0, n, 'X', "not a Damka network"},  {8, n, 2, "another version"},
                  {16, n, 64, "another architecture"}, {n / 2, n, 0x5A, "checksum"},
                  {0, n - 1, 0, "wrong size"},         {0, 20, 0, "wrong size"}};
    for (size_t k = 0; k < sizeof damage / sizeof damage[0]; k++) {
        uint8_t *copy = malloc(n);
        ck_assert(copy != NULL);
        memcpy(copy, buf, n);
        if (damage[k].len == n)
            copy[damage[k].at] ^= damage[k].value;
        ck_assert(!net_load_bytes(copy, damage[k].len, kept, err, sizeof err));
        ck_assert_msg(strstr(err, damage[k].why) != NULL, "damage %zu: %s", k, err);
        free(copy);
    }
    NetWeights *fresh = random_net(1);
    ck_assert(memcmp(kept, fresh, sizeof *kept) == 0);
    ck_assert(!net_load_file("/nonexistent/net.bin", kept, err, sizeof err));
    ck_assert(strstr(err, "cannot open") != NULL);
    free(buf);
    free(fresh);
    unlink(path);
    free(w);
    free(back);
    free(kept);
}
END_TEST

static double number_after(const char *out, const char *prefix, const char *word)
{
    const char *p = strstr(out, prefix);
    ck_assert_msg(p != NULL, "no '%s' in the trainer's output:\n%s", prefix, out);
    p = strstr(p, word);
    ck_assert_msg(p != NULL, "no '%s' after '%s':\n%s", word, prefix, out);
    return atof(p + strlen(word));
}

// damka-train-net's gradient is right and it lowers the held-out loss on the small sample; the
// network it writes loads,
// its integers stay within a few centi-men of the float network, and the engine's integer
// score of the start position from the file is the one the trainer printed.
START_TEST(test_net_trainer)
{
    const char *train = getenv("DAMKA_TRAIN_NET"), *data = getenv("TRAIN_SAMPLE");
    ck_assert_msg(train && data, "DAMKA_TRAIN_NET and TRAIN_SAMPLE are set by make test");
    char path[] = "/tmp/damka-trained-net-XXXXXX", cmd[1024], err[NET_ERR_MAX];
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd,
             "%s --data %s --epochs 5 --batch 256 --lr 0.003 --holdout-block 128 --threads 2 "
             "--out %s 2>&1",
             train, data, path);
    static char out[1 << 14];
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    ck_assert_msg(pclose(p) == 0, "%s failed:\n%s", cmd, out);
    double before = number_after(out, "epoch 0:", "held out "),
           after = number_after(out, "epoch 5:", "held out ");
    ck_assert_msg(after < before - 0.05, "held-out loss %f -> %f", before, after);
    ck_assert_double_lt(number_after(out, "quantisation:", "mean |integer - float| "), 8.0);
    // The backward pass agrees with central differences (a gradient off by 2x in one block
    // reads 0.33 here).
    ck_assert_double_lt(number_after(out, "gradient check:", "median relative error "), 0.1);
    NetWeights *w = malloc(sizeof *w);
    ck_assert(w != NULL);
    ck_assert_msg(net_load_file(path, w, err, sizeof err), "%s", err);
    Board b;
    board_start(&b);
    NetAccumulator acc;
    net_refresh(w, &b, &acc);
    int printed = (int)number_after(out, "start position:", "integer ");
    ck_assert_int_eq(net_evaluate(w, &b, &acc), printed);
    ck_assert_double_le(fabs(number_after(out, "start position:", "float ") - printed), 8.0);
    // The engine plays with it (EvalFile): its static score is the file's, a search from
    // positions with captures and promotions ahead ends with a legal move (in debug and
    // sanitizer builds the search checks its sums against a refresh at every evaluation), a
    // bad file keeps it, and "" goes back to the pattern evaluation.
    Engine *e = engine_new();
    ck_assert(e != NULL);
    int patterns = engine_static_eval(e);
    ck_assert_msg(engine_set_eval_file(e, path, err, sizeof err), "%s", err);
    ck_assert_int_eq(engine_static_eval(e), net_score(w, &b, &acc));
    static const char *const fens[] = {"W:W21-32:B1-12", "W:WK29,22,23,18:B5,9,10,K14,15",
                                       "B:W17,19,21,27,K30:B6,7,8,10,12,K3"};
    for (int i = 0; i < 3; i++) {
        ck_assert(engine_set_position(e, fens[i], NULL, 0, MOVE_FMT_UCI, err, sizeof err));
        EngineGo go;
        engine_go_depth(&go, 7);
        ck_assert(engine_go(e, &go, NULL, NULL, NULL));
        engine_wait(e);
        EngineResult r;
        engine_result(e, &r);
        ck_assert(r.has_best && r.depth >= 7);
    }
    int with_net = engine_static_eval(e);
    ck_assert(!engine_set_eval_file(e, "/etc/passwd", err, sizeof err));
    ck_assert_msg(strstr(err, "keeping") != NULL, "%s", err);
    ck_assert_int_eq(engine_static_eval(e), with_net);
    ck_assert(engine_set_eval_file(e, "", err, sizeof err));
    engine_new_game(e);
    ck_assert_int_eq(engine_static_eval(e), patterns);
    engine_free(e);
    free(w);
    unlink(path);
}
END_TEST

Suite *suite_net(void)
{
    Suite *s = suite_create("net");
    TCase *tc = tcase_create("network");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_net_incremental_equals_refresh);
    tcase_add_test(tc, test_net_colour_symmetry);
    tcase_add_test(tc, test_net_file);
    tcase_add_test(tc, test_net_simd_equals_portable);
    tcase_add_test(tc, test_net_trainer);
    suite_add_tcase(s, tc);
    return s;
}
