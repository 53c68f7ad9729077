// SPDX-License-Identifier: MIT
// Tests of the learned evaluation: its pattern windows and king squares against a
// square-by-square reading, colour symmetry with any weights, the two views (tempo), the
// features the trainer fits reproducing the evaluation, the material table, the weights file
// (other versions refused; the built-in weights are the shipped file), the trainer (damka-train on
// the small sample in tests/data), and EvalFile. tests/data/train-sample.bin (3,455 positions) was
// written by
//   ./damka-datagen --out tests/data/train-sample.bin --games 80 --threads 1 --nodes 300
//       --seed 5 --jitter 0 (one command)
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board.h"
#include "engine.h"
#include "eval.h"
#include "movegen.h"
#include "notation.h"
#include "record.h"
#include "tables.h"
#include "test_suites.h"
#include "util.h"

// Weights with every pattern, king-square and material entry random (|w| < 64) and the named
// weights as built in.
static EvalWeights *random_weights(uint64_t seed)
{
    EvalWeights *w = malloc(sizeof *w);
    ck_assert(w != NULL);
    *w = *eval_builtin();
    int16_t *pat = &w->pattern[0][0][0][0][0];
    for (size_t i = 0; i < sizeof w->pattern / sizeof *pat; i++)
        pat[i] = (int16_t)((int)(test_rand(&seed) % 127) - 63);
    for (int v = 0; v < EVAL_VIEWS; v++)
        for (int s = 0; s < SQUARE_COUNT; s++)
            for (int p = 0; p < 2; p++)
                w->king_square[v][s][p] = (int16_t)((int)(test_rand(&seed) % 127) - 63);
    for (int i = 0; i < EVAL_MATERIAL_STATES; i++)
        w->material[i] = (int16_t)((int)(test_rand(&seed) % 127) - 63);
    return w;
}

// Plays random games from the start, calling fn on every position until it returns false.
static int random_positions(uint64_t seed, int games, bool (*fn)(const Board *, void *), void *ctx)
{
    int seen = 0;
    for (int g = 0; g < games; g++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 150; ply++) {
            if (!fn(&b, ctx))
                return seen;
            seen++;
            MoveList list;
            int n = movegen_all(&b, &list);
            if (n == 0)
                break;
            board_play(&b, &list.moves[test_rand(&seed) % (uint64_t)n]);
        }
    }
    return seen;
}

// The state of window (wx, wy) for side s, read square by square: digit 2 * rank-in-window +
// k is the k-th dark square of that rank from the left, seen from s's side of the board.
static int reference_state(const Board *b, Side s, int wx, int wy)
{
    int idx = 0, pow3 = 1;
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 2; k++, pow3 *= 3) {
            int x = 2 * wx + 2 * k + (r & 1), y = 2 * wy + r;
            if (s == SIDE_BLACK)
                x = 7 - x, y = 7 - y;
            int p = board_piece_at(b, tables_square_at(x, y)); // 1 w, 2 b, 3 W, 4 B
            bool own_man = p == (s == SIDE_WHITE ? 1 : 2),
                 enemy_man = p == (s == SIDE_WHITE ? 2 : 1);
            idx += pow3 * (own_man ? 1 : enemy_man ? 2 : 0);
        }
    return idx;
}

// The squares of side s's kings, read square by square from s's side of the board.
static uint32_t reference_kings(const Board *b, Side s)
{
    uint32_t out = 0;
    for (Square q = 0; q < SQUARE_COUNT; q++) {
        int x = tables_file(q), y = tables_rank(q);
        if (board_piece_at(b, q) == (s == SIDE_WHITE ? 3 : 4))
            out |= 1u << (s == SIDE_WHITE ? q : tables_square_at(7 - x, 7 - y));
    }
    return out;
}

// The material index of b, counted square by square.
static int reference_material(const Board *b)
{
    int n[5] = {0}; // by board_piece_at: 1 w, 2 b, 3 W, 4 B
    for (Square q = 0; q < SQUARE_COUNT; q++)
        n[board_piece_at(b, q)]++;
    bool white = b->side == SIDE_WHITE;
    int own_men = n[white ? 1 : 2], own_kings = n[white ? 3 : 4];
    int enemy_men = n[white ? 2 : 1], enemy_kings = n[white ? 4 : 3];
    return ((own_men * 13 + own_kings) * 13 + enemy_men) * 13 + enemy_kings;
}

// The king state of side s's windows: 1 if s has a king, plus 2 if its opponent has one.
static int reference_king_state(const Board *b, Side s)
{
    bool own = false, enemy = false;
    for (Square q = 0; q < SQUARE_COUNT; q++) {
        int p = board_piece_at(b, q);
        own |= p == (s == SIDE_WHITE ? 3 : 4);
        enemy |= p == (s == SIDE_WHITE ? 4 : 3);
    }
    return own + 2 * enemy;
}

static bool check_windows(const Board *b, void *ctx)
{
    int *with_kings = ctx;
    EvalFeatures f;
    eval_features(b, &f);
    ck_assert_int_eq(f.material, reference_material(b));
    ck_assert_int_eq(f.king_state[0], reference_king_state(b, b->side));
    ck_assert_int_eq(f.king_state[1], reference_king_state(b, side_flip(b->side)));
    ck_assert_uint_eq(f.kings_own, reference_kings(b, b->side));
    ck_assert_uint_eq(f.kings_enemy, reference_kings(b, side_flip(b->side)));
    *with_kings += f.kings_own || f.kings_enemy;
    for (int wy = 0; wy < 3; wy++)
        for (int wx = 0; wx < 3; wx++) {
            int k = wy * 3 + wx;
            ck_assert_int_eq(f.own[k], reference_state(b, b->side, wx, wy));
            ck_assert_int_eq(f.enemy[k], reference_state(b, side_flip(b->side), wx, wy));
        }
    return true;
}

START_TEST(test_eval_windows_match_squares)
{
    tables_init();
    int with_kings = 0; // positions with a king on the board
    ck_assert_int_gt(random_positions(5, 100, check_windows, &with_kings), 4000);
    ck_assert_int_gt(with_kings, 300);
}
END_TEST

// What a check over random games counts: positions where the pattern weights mattered.
typedef struct WeightsCtx {
    const EvalWeights *w;
    int mattered;
} WeightsCtx;

// Runs fn over the positions of random games with random pattern weights; at least half of
// them must have been ones where the patterns mattered (else the check proves little).
static void check_random_games(uint64_t weights_seed, uint64_t games_seed,
                               bool (*fn)(const Board *, void *))
{
    EvalWeights *w = random_weights(weights_seed);
    WeightsCtx c = {.w = w};
    int n = random_positions(games_seed, 100, fn, &c);
    ck_assert_int_gt(n, 4000);
    ck_assert_int_gt(c.mattered, n / 2);
    free(w);
}

static bool check_symmetry(const Board *b, void *ctx)
{
    WeightsCtx *c = ctx;
    Board m;
    board_mirror(b, &m);
    int v = eval_evaluate(c->w, b), vm = eval_evaluate(c->w, &m);
    ck_assert_msg(v == vm, "eval %d vs mirrored %d", v, vm);
    c->mattered += v != eval_evaluate(eval_builtin(), b);
    return true;
}

START_TEST(test_eval_colour_symmetric_any_weights)
{
    // With random pattern weights (so that every table entry matters), a position and its
    // colour-flipped mirror score the same.
    check_random_games(77, 9, check_symmetry);
}
END_TEST

static bool check_linear(const Board *b, void *ctx)
{
    WeightsCtx *c = ctx;
    EvalFeatures f;
    eval_features(b, &f);
    int named = 0;
    for (int i = 0; i < eval_param_count(); i++)
        named += eval_param(c->w, i) * f.base[i];
    int opening = 0, ending = 0;
    for (int k = 0; k < EVAL_WINDOWS; k++) {
        const int16_t *own = c->w->pattern[f.king_state[0]][0][k][f.own[k]];
        const int16_t *enemy = c->w->pattern[f.king_state[1]][1][k][f.enemy[k]];
        opening += own[0] - enemy[0];
        ending += own[1] - enemy[1];
    }
    for (Square q = 0; q < SQUARE_COUNT; q++) {
        if (f.kings_own & (1u << q))
            opening += c->w->king_square[0][q][0], ending += c->w->king_square[0][q][1];
        if (f.kings_enemy & (1u << q))
            opening -= c->w->king_square[1][q][0], ending -= c->w->king_square[1][q][1];
    }
    int pattern = (opening * f.phase + ending * (EVAL_PHASE_MAX - f.phase)) / EVAL_PHASE_MAX +
                  c->w->material[f.material];
    int total = named + pattern;
    if (f.drawish)
        total /= c->w->params.draw_divisor;
    ck_assert_int_eq(eval_evaluate(c->w, b), total);
    c->mattered += pattern != 0;
    return true;
}

START_TEST(test_eval_features_reproduce_eval)
{
    // What the trainer fits (the features) gives back the engine's evaluation exactly.
    check_random_games(123, 21, check_linear);
}
END_TEST

static void temp_path(char *buf, size_t len, const char *what)
{
    snprintf(buf, len, "/tmp/damka-test-%ld-%s", (long)getpid(), what);
}

static long file_bytes(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    long n = (long)fread(buf, 1, cap, f);
    fclose(f);
    ck_assert_msg((size_t)n < cap, "%s does not fit in %zu bytes", path, cap);
    return n;
}

static void write_bytes(const char *path, const uint8_t *buf, long n)
{
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    ck_assert_int_eq((long)fwrite(buf, 1, (size_t)n, f), n);
    fclose(f);
}

START_TEST(test_eval_file_round_trip_and_refusals)
{
    char path[256], bad[256], err[EVAL_ERR_MAX];
    temp_path(path, sizeof path, "w.bin");
    temp_path(bad, sizeof bad, "bad.bin");
    EvalWeights *w = random_weights(5), *r = malloc(sizeof *r), *keep = malloc(sizeof *keep);
    ck_assert(r && keep);
    ck_assert_msg(eval_save_file(path, w, err, sizeof err), "%s", err);
    memset(r, 0, sizeof *r);
    ck_assert_msg(eval_load_file(path, r, err, sizeof err), "%s", err);
    ck_assert(memcmp(r, w, sizeof *w) == 0);
    // Damaged copies are refused with a reason and leave the weights as they were.
    static uint8_t buf[1 << 21];
    long n = file_bytes(path, buf, sizeof buf);
    ck_assert_int_gt(n, 200000);
    static const struct {
        int how;
        const char *why;
    } cases[] = {{0, "checksum"}, {1, "wrong size"}, {2, "not a Damka"}, {3, "wrong size"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static uint8_t copy[1 << 21];
        memcpy(copy, buf, (size_t)n);
        long m = n;
        if (cases[i].how == 0)
            copy[n / 2] ^= 0x40;
        else if (cases[i].how == 1)
            m = n - 10;
        else if (cases[i].how == 2)
            copy[0] = 'X';
        else
            m = 100;
        write_bytes(bad, copy, m);
        memcpy(keep, r, sizeof *r);
        ck_assert(!eval_load_file(bad, r, err, sizeof err));
        ck_assert_msg(strstr(err, cases[i].why) != NULL, "case %zu: %s", i, err);
        ck_assert(strchr(err, '\n') == NULL);
        ck_assert(memcmp(keep, r, sizeof *r) == 0);
    }
    ck_assert(!eval_load_file("/nonexistent/weights", r, err, sizeof err));
    unlink(path);
    unlink(bad);
    free(w), free(r), free(keep);
}
END_TEST

// The file with its version field set to v and its checksum made good again, cut to n bytes
// (the checksum being the last 8).
static void write_version_bytes(uint8_t *buf, long n, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        buf[8 + i] = (uint8_t)(v >> (8 * i));
    uint64_t h = util_fnv1a(buf, (size_t)n - 8, UTIL_FNV_BASIS);
    for (int i = 0; i < 8; i++)
        buf[n - 8 + i] = (uint8_t)(h >> (8 * i));
}

static void write_version(const char *path, uint8_t *buf, long n, uint32_t v)
{
    write_version_bytes(buf, n, v);
    write_bytes(path, buf, n);
}

static bool all_zero(const int16_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return false;
    return true;
}

START_TEST(test_eval_file_refuses_other_versions)
{
    // Versions 1-5 (the layouts of earlier rounds, converted once and read no more) and 7 are
    // refused with one line, even with a good checksum at version 6's size; r is unchanged.
    char path[256], old[256], err[EVAL_ERR_MAX];
    temp_path(path, sizeof path, "v5.bin");
    temp_path(old, sizeof old, "old.bin");
    EvalWeights *w = random_weights(8), *r = malloc(sizeof *r), *keep = malloc(sizeof *keep);
    ck_assert(r != NULL && keep != NULL);
    ck_assert_msg(eval_save_file(path, w, err, sizeof err), "%s", err);
    static uint8_t buf[1 << 21];
    memset(r, 0x55, sizeof *r);
    memcpy(keep, r, sizeof *r);
    static const uint32_t versions[] = {1, 2, 3, 4, 5, 7};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        long n = file_bytes(path, buf, sizeof buf);
        write_version(old, buf, n, versions[i]);
        ck_assert(!eval_load_file(old, r, err, sizeof err));
        ck_assert_msg(strstr(err, "another version") != NULL, "%s", err);
        ck_assert(strchr(err, '\n') == NULL);
        ck_assert(memcmp(keep, r, sizeof *r) == 0);
    }
    unlink(path);
    unlink(old);
    free(w), free(r), free(keep);
}
END_TEST

START_TEST(test_eval_builtin_is_the_shipped_file)
{
    // The built-in weights are the file of weights/ as the build found it, read by the loader
    // of EvalFile (checksum and all), and they are not empty.
    EvalWeights *w = malloc(sizeof *w);
    char err[EVAL_ERR_MAX];
    ck_assert(w != NULL);
    ck_assert_msg(eval_load_file(EVAL_WEIGHTS_FILE, w, err, sizeof err), "%s", err);
    ck_assert(memcmp(w, eval_builtin(), sizeof *w) == 0);
    ck_assert_int_gt(w->params.man, 0);
    free(w);
}
END_TEST

typedef struct TempoCtx {
    const EvalWeights *w;
    int positions, asymmetric;
} TempoCtx;

static bool check_tempo(const Board *b, void *ctx)
{
    TempoCtx *c = ctx;
    Board other = *b;
    other.side = side_flip(b->side);
    other.key = board_compute_key(&other);
    c->positions++;
    c->asymmetric += eval_evaluate(c->w, b) != -eval_evaluate(c->w, &other);
    return true;
}

START_TEST(test_eval_views_learn_tempo)
{
    // With one table for both views (patterns and king squares) and a material table whose
    // weight for a balance is minus that of the balance seen from the other side, the
    // evaluation is exactly antisymmetric in the side to move (the move is worth nothing);
    // with a table of its own for each view it is not.
    EvalWeights *w = random_weights(13);
    TempoCtx same = {.w = w};
    for (int ks = 0; ks < EVAL_KING_STATES; ks++)
        memcpy(w->pattern[ks][1], w->pattern[ks][0], sizeof w->pattern[ks][0]);
    memcpy(w->king_square[1], w->king_square[0], sizeof w->king_square[0]);
    for (int own = 0; own < 13 * 13; own++)
        for (int enemy = 0; enemy <= own; enemy++) {
            int i = own * 13 * 13 + enemy, j = enemy * 13 * 13 + own;
            w->material[j] = (int16_t)(i == j ? 0 : -w->material[i]);
        }
    random_positions(31, 20, check_tempo, &same);
    ck_assert_int_gt(same.positions, 1000);
    ck_assert_int_eq(same.asymmetric, 0);
    free(w);
    w = random_weights(13);
    TempoCtx own = {.w = w};
    random_positions(31, 20, check_tempo, &own);
    ck_assert_int_gt(own.asymmetric, own.positions / 2);
    free(w);
}
END_TEST

// Runs the trainer's command line cmd, which must succeed, and keeps what it wrote.
static void run_trainer(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    ck_assert_msg(pclose(p) == 0, "%s failed:\n%s", cmd, out);
}

static double loss_at(const char *out, const char *prefix)
{
    const char *p = strstr(out, prefix);
    ck_assert_msg(p != NULL, "no '%s' in the trainer's output:\n%s", prefix, out);
    p = strstr(p, "training loss ");
    ck_assert(p != NULL);
    return atof(p + strlen("training loss "));
}

START_TEST(test_trainer_lowers_loss_and_weights_load_back)
{
    const char *train = getenv("DAMKA_TRAIN"), *data = getenv("TRAIN_SAMPLE");
    ck_assert_msg(train && data, "DAMKA_TRAIN and TRAIN_SAMPLE are set by make test");
    char path[256], again[256], cmd[1024], err[ENGINE_ERR_MAX];
    temp_path(path, sizeof path, "trained.bin");
    temp_path(again, sizeof again, "again.bin");
    snprintf(cmd, sizeof cmd, "%s --data %s --epochs 8 --batch 256 --threads 2 --out %s 2>&1",
             train, data, path);
    static char out[1 << 16];
    run_trainer(cmd, out, sizeof out);
    double before = loss_at(out, "epoch 0:"), after = loss_at(out, "epoch 8:");
    ck_assert_msg(after < before - 0.01, "loss %f -> %f", before, after);
    // The file loads, and written again it is the same bytes.
    EvalWeights *w = malloc(sizeof *w);
    ck_assert(w != NULL);
    ck_assert_msg(eval_load_file(path, w, err, sizeof err), "%s", err);
    ck_assert_msg(eval_save_file(again, w, err, sizeof err), "%s", err);
    static uint8_t a[1 << 21], b[1 << 21];
    long na = file_bytes(path, a, sizeof a), nb = file_bytes(again, b, sizeof b);
    ck_assert_int_eq(na, nb);
    ck_assert(memcmp(a, b, (size_t)na) == 0);
    // The engine plays with them (EvalFile), keeps them on a bad file, and goes back.
    Engine *e = engine_new();
    ck_assert(engine_set_position(e, "W:W21,22,23,24,25,26,27,28:B1,2,3,5,6", NULL, 0, MOVE_FMT_UCI,
                                  err, sizeof err));
    int builtin = engine_static_eval(e);
    ck_assert_msg(engine_set_eval_file(e, path, err, sizeof err), "%s", err);
    int trained = engine_static_eval(e);
    ck_assert_int_eq(trained, eval_evaluate(w, engine_board(e)));
    ck_assert_int_ne(trained, builtin);
    ck_assert(!engine_set_eval_file(e, "/nonexistent/weights", err, sizeof err));
    ck_assert(strstr(err, "keeping") != NULL);
    ck_assert_int_eq(engine_static_eval(e), trained);
    ck_assert(engine_set_eval_file(e, "", err, sizeof err));
    ck_assert_int_eq(engine_static_eval(e), builtin);
    engine_free(e);
    unlink(path);
    unlink(again);
    free(w);
}
END_TEST

// The step falls from --lr to --lr-final over the epochs: in the last epoch a decayed run
// moves the loss far less than a run at the first step throughout. A final step that is not
// positive is refused.
static double last_epoch_change(const char *train, const char *data, const char *lr_final)
{
    char path[256], cmd[1024];
    temp_path(path, sizeof path, "decay.bin");
    snprintf(cmd, sizeof cmd,
             "%s --data %s --epochs 8 --batch 256 --threads 2 --lr 1 --lr-final %s --out %s 2>&1",
             train, data, lr_final, path);
    static char out[1 << 16];
    run_trainer(cmd, out, sizeof out);
    char schedule[64];
    snprintf(schedule, sizeof schedule, "lr = 1 to %s,", lr_final);
    ck_assert_msg(strstr(out, schedule) != NULL, "no '%s' in:\n%s", schedule, out);
    unlink(path);
    return fabs(loss_at(out, "epoch 8:") - loss_at(out, "epoch 7:"));
}

START_TEST(test_trainer_step_decays)
{
    const char *train = getenv("DAMKA_TRAIN"), *data = getenv("TRAIN_SAMPLE");
    ck_assert_msg(train && data, "DAMKA_TRAIN and TRAIN_SAMPLE are set by make test");
    double constant = last_epoch_change(train, data, "1");
    double decayed = last_epoch_change(train, data, "0.01");
    ck_assert_msg(decayed < constant / 3, "last epoch: %f decayed, %f constant", decayed, constant);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --data %s --lr-final 0 >/dev/null 2>&1", train, data);
    int rc = system(cmd);
    ck_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
}
END_TEST

// --holdout-block B holds out the records of blocks 0, 20, 40... of B consecutive records
// (whole games): of the sample's 3,455 records, with B = 100, records 0-99 and 2000-2099, less
// the drawn endings the trainer leaves out of both sets.
START_TEST(test_trainer_holds_out_whole_blocks)
{
    const char *train = getenv("DAMKA_TRAIN"), *data = getenv("TRAIN_SAMPLE");
    ck_assert_msg(train && data, "DAMKA_TRAIN and TRAIN_SAMPLE are set by make test");
    static char out[1 << 16];
    size_t counts[2][3]; // [by key, by blocks][training, held out, drawn endings]
    for (int blocks = 0; blocks < 2; blocks++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s --data %s --epochs 0 --threads 1 %s 2>&1", train, data,
                 blocks ? "--holdout-block 100" : "");
        run_trainer(cmd, out, sizeof out);
        const char *p = strstr(out, "positions: ");
        ck_assert_msg(p != NULL, "%s", out);
        size_t *c = counts[blocks];
        ck_assert_int_eq(
            sscanf(p, "positions: %zu training, %zu held out (%zu", &c[0], &c[1], &c[2]), 3);
        ck_assert_int_eq(c[0] + c[1] + c[2], 3455);
        ck_assert(!blocks || strstr(out, "one block of 100 consecutive records in 20") != NULL);
    }
    ck_assert_uint_le(counts[1][1], 200);
    ck_assert_uint_ge(counts[1][1], 200 - counts[1][2]);
    ck_assert_uint_ne(counts[0][1], counts[1][1]); // by key: about 1 in 20 of every game's
    // A count that is not one is refused with the usage (exit 2), a negative one too (read
    // as unsigned, it would wrap to a huge count).
    static const char *const bad[] = {"--holdout-block x", "--holdout-block -1", "--batch -5",
                                      "--max-positions -1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s --data %s %s >/dev/null 2>&1", train, data, bad[i]);
        int rc = system(cmd);
        ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "%s: not refused", bad[i]);
    }
}
END_TEST

// damka-datagen refuses a node budget that is not a count (a negative one would wrap to a
// search without end), and a --threatened other than 0 or 1, with its usage, before it writes
// anything.
START_TEST(test_datagen_refuses_bad_arguments)
{
    const char *datagen = getenv("DAMKA_DATAGEN");
    ck_assert_msg(datagen != NULL, "DAMKA_DATAGEN is set by make test");
    char path[256];
    temp_path(path, sizeof path, "datagen.bin");
    static const char *const bad[] = {"--nodes -5", "--nodes x", "--nodes 0", "--threatened 2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s --out %s --games 1 %s >/dev/null 2>&1", datagen, path,
                 bad[i]);
        int rc = system(cmd);
        ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "%s: not refused", bad[i]);
        ck_assert_msg(access(path, F_OK) != 0, "%s: %s written", bad[i], path);
    }
}
END_TEST

// damka-datagen keeps quiet positions only (no capture pending for either side), or with
// --threatened 1 also those where only the side not to move can capture (the search scores
// such positions statically at its leaves); never one where the side to move must capture.
// Counts the records of each kind that a few short games write.
static void datagen_kinds(const char *datagen, int threatened, long counts[2])
{
    char path[256], progress[300], cmd[1536];
    temp_path(path, sizeof path, "threat.bin");
    snprintf(progress, sizeof progress, "%s.progress", path);
    unlink(path);
    unlink(progress);
    snprintf(cmd, sizeof cmd,
             "%s --out %s --games 6 --threads 1 --nodes 300 --threatened %d "
             "--openings %s/../../book/openings/4ply-balanced.txt >/dev/null 2>&1",
             datagen, path, threatened, DATA_DIR);
    ck_assert_int_eq(system(cmd), 0);
    FILE *f = fopen(path, "rb");
    ck_assert(f != NULL);
    uint8_t rec[RECORD_BYTES];
    counts[0] = counts[1] = 0;
    while (fread(rec, 1, RECORD_BYTES, f) == RECORD_BYTES) {
        Board b;
        int result, score;
        ck_assert(record_decode(rec, &b, &result, &score));
        ck_assert(!movegen_has_capture(&b));
        counts[movegen_opponent_has_capture(&b) ? 1 : 0]++;
    }
    fclose(f);
    unlink(path);
    unlink(progress);
}

START_TEST(test_datagen_keeps_threatened_positions_on_request)
{
    const char *datagen = getenv("DAMKA_DATAGEN");
    ck_assert_msg(datagen != NULL, "DAMKA_DATAGEN is set by make test");
    long quiet[2], threatened[2];
    datagen_kinds(datagen, 0, quiet);
    datagen_kinds(datagen, 1, threatened);
    ck_assert_int_gt(quiet[0], 0);
    ck_assert_int_eq(quiet[1], 0);
    ck_assert_int_gt(threatened[1], 0);
    ck_assert_int_eq(threatened[0], quiet[0]); // the same games, the same quiet positions
}
END_TEST

// The temporary files of a damka-datagen --pdn run named stem: the games, the output and its
// progress file; no output of an earlier run is left.
static void datagen_files(const char *stem, char pdn[256], char out[256], char progress[300])
{
    char name[64];
    snprintf(name, sizeof name, "%s.pdn", stem);
    temp_path(pdn, 256, name);
    snprintf(name, sizeof name, "%s.bin", stem);
    temp_path(out, 256, name);
    snprintf(progress, 300, "%s.progress", out);
    unlink(out);
    unlink(progress);
}

// damka-datagen --pdn replays finished games instead of playing: it writes each distinct quiet
// position that a game reached before its last move, with that game's result for the side to
// move, and skips a game without a result and one that does not read.
static const char *const REPLAY_MOVES =
    "1. g3-f4 d6-e5 2. f4xd6 e7xc5 3. c3-b4 d8-e7 4. b4xd6 c7xe5 5. h2-g3 h6-g5 "
    "6. g3-h4 e5-f4 7. a3-b4 b6-a5 8. b4-c5 e7-d6 9. c5xe7 f8xd6 10. b2-c3 a7-b6 "
    "11. a1-b2 g7-h6 12. b2-a3 f4-g3 13. c3-b4 a5xc3 14. d2xb4 b8-c7 15. b4-a5 g3-h2 "
    "16. c1-d2 b6-c5 17. d2-c3 d6-e5 18. c3-b4 c7-d6 19. e1-d2 h8-g7 20. a5-b6 c5xa7 "
    "21. b4-c5 d6xb4 22. a3xc5 e5-d4 23. c5-d6 g5-f4 24. e3xg5xe7 a7-b6 25. e7-f8 "
    "g7-f6 26. d6-c7 b6xd8 27. f8-d6 h6-g5 28. d2-e3 d4-c3 29. e3-f4 g5xe3 "
    "30. f2xd4xb2 d8-e7 31. d6xf8 f6-e5 32. b2-c3 e5-f4 33. c3-d4 f4-e3 34. d4xf2";

START_TEST(test_datagen_replays_pdn_games)
{
    const char *datagen = getenv("DAMKA_DATAGEN");
    ck_assert_msg(datagen != NULL, "DAMKA_DATAGEN is set by make test");
    char pdn[256], path[256], progress[300], cmd[1024];
    datagen_files("replay", pdn, path, progress);
    FILE *f = fopen(pdn, "w");
    ck_assert(f != NULL);
    fprintf(f, "[GameType \"25\"]\n[Result \"*\"]\n\n1. c3-d4 *\n\n");
    fprintf(f, "[GameType \"25\"]\n[Result \"1-0\"]\n\n1. c3-d4 d4-e5 1-0\n\n");
    fprintf(f, "[GameType \"25\"]\n[Result \"1-0\"]\n\n%s 1-0\n", REPLAY_MOVES);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s --pdn %s --out %s --threads 1 --nodes 300 2>&1", datagen, pdn,
             path);
    FILE *out = popen(cmd, "r");
    ck_assert(out != NULL);
    char text[2048];
    size_t len = fread(text, 1, sizeof text - 1, out);
    text[len] = '\0';
    ck_assert_msg(pclose(out) == 0, "%s", text);
    ck_assert_msg(strstr(text, "1 games to replay") && strstr(text, "2 without a result"), "%s",
                  text);

    // The quiet positions before each move of the game, as the test replays it.
    Key keys[128];
    int nkeys = 0;
    Board b;
    board_start(&b);
    char moves[2048];
    snprintf(moves, sizeof moves, "%s", REPLAY_MOVES);
    for (char *save = NULL, *w = strtok_r(moves, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strchr(w, '.'))
            continue; // a move number
        bool seen = false;
        for (int i = 0; i < nkeys; i++)
            seen |= keys[i] == b.key;
        if (!seen && !movegen_has_capture(&b) && !movegen_opponent_has_capture(&b))
            keys[nkeys++] = b.key;
        Move m;
        char why[128];
        ck_assert_msg(notation_parse_move(&b, w, MOVE_FMT_ALG, &m, why, sizeof why), "%s", w);
        board_play(&b, &m);
    }
    ck_assert_int_gt(nkeys, 10);

    f = fopen(path, "rb");
    ck_assert(f != NULL);
    uint8_t rec[RECORD_BYTES];
    int nrecords = 0;
    while (fread(rec, 1, RECORD_BYTES, f) == RECORD_BYTES) {
        Board r;
        int result, score;
        ck_assert(record_decode(rec, &r, &result, &score));
        ck_assert_int_eq(result, r.side == SIDE_WHITE ? 1 : -1); // White won
        bool found = false;
        for (int i = 0; i < nkeys; i++)
            found |= keys[i] == r.key;
        ck_assert_msg(found, "record %d is not a quiet position of the game", nrecords);
        nrecords++;
    }
    fclose(f);
    ck_assert_int_eq(nrecords, nkeys);
    unlink(pdn);
    unlink(path);
    unlink(progress);
}
END_TEST

// The score damka-datagen --pdn gives the first position of a one-move game from fen, with the
// extra arguments args; INT_MIN when it writes no record.
static int datagen_first_score(const char *datagen, const char *fen, const char *move,
                               const char *args)
{
    char pdn[256], path[256], progress[300], cmd[1536];
    datagen_files("egdb", pdn, path, progress);
    FILE *f = fopen(pdn, "w");
    ck_assert(f != NULL);
    fprintf(f, "[GameType \"25\"]\n[FEN \"%s\"]\n[Result \"1-0\"]\n\n1. %s 1-0\n", fen, move);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s --pdn %s --out %s --threads 1 --nodes 300 %s >/dev/null 2>&1",
             datagen, pdn, path, args);
    int rc = system(cmd), score = INT_MIN;
    f = rc == 0 ? fopen(path, "rb") : NULL;
    uint8_t rec[RECORD_BYTES];
    if (f && fread(rec, 1, RECORD_BYTES, f) == RECORD_BYTES) {
        Board b;
        int result;
        ck_assert(record_decode(rec, &b, &result, &score));
    }
    if (f)
        fclose(f);
    unlink(pdn);
    unlink(path);
    unlink(progress);
    return score;
}

// With --egdb the searches of damka-datagen probe the endgame databases: a won ending of the
// databases is labelled a decided win, which a search of 300 nodes without them does not see.
// A folder without databases is refused before anything is written.
START_TEST(test_datagen_probes_the_databases_on_request)
{
    const char *datagen = getenv("DAMKA_DATAGEN"), *dir = getenv("EGDB_DIR");
    ck_assert_msg(datagen && dir, "DAMKA_DATAGEN and EGDB_DIR are set by make test");
    static const char *const fen = "W:WKa1,Kc1,Ke1:BKh6"; // 3 kings hold the long diagonal
    char args[512];
    snprintf(args, sizeof args, "--egdb %s", dir);
    int with = datagen_first_score(datagen, fen, "e1-f2", args);
    int without = datagen_first_score(datagen, fen, "e1-f2", "");
    ck_assert_int_eq(with, RECORD_SCORE_CLAMP);
    ck_assert_int_ne(without, INT_MIN);
    ck_assert_int_lt(without, RECORD_SCORE_CLAMP);
    char empty[] = "/tmp/damka-noegdb-XXXXXX";
    ck_assert(mkdtemp(empty) != NULL);
    snprintf(args, sizeof args, "--egdb %s", empty);
    ck_assert_int_eq(datagen_first_score(datagen, fen, "e1-f2", args), INT_MIN);
    rmdir(empty);
}
END_TEST

// Round 1 of the data is played with the evaluation before any training: the trainer writes
// it as a weights file (make datagen ROUND=1), hand-set named weights and empty patterns.
START_TEST(test_trainer_writes_the_handset_weights)
{
    const char *train = getenv("DAMKA_TRAIN");
    ck_assert_msg(train != NULL, "DAMKA_TRAIN is set by make test");
    char path[256], cmd[1024], err[ENGINE_ERR_MAX];
    temp_path(path, sizeof path, "handset.bin");
    snprintf(cmd, sizeof cmd, "%s --handset-out %s", train, path);
    ck_assert_int_eq(system(cmd), 0);
    EvalWeights *w = malloc(sizeof *w);
    ck_assert(w != NULL);
    ck_assert_msg(eval_load_file(path, w, err, sizeof err), "%s", err);
    ck_assert_int_eq(w->params.man, 100);
    ck_assert_int_eq(w->params.king, 250);
    ck_assert_int_eq(w->params.runaway[6], 80);
    ck_assert(all_zero(&w->pattern[0][0][0][0][0], sizeof w->pattern / sizeof(int16_t)));
    // Not the built-in (trained) weights.
    ck_assert(memcmp(&w->params, &eval_builtin()->params, sizeof w->params) != 0);
    unlink(path);
    free(w);
}
END_TEST

// --merge: the records of the files in order, each position once (its first record); a file
// that is not whole records is refused and the exit status says so.
START_TEST(test_datagen_merge)
{
    const char *datagen = getenv("DAMKA_DATAGEN"), *sample = getenv("TRAIN_SAMPLE");
    ck_assert_msg(datagen && sample, "DAMKA_DATAGEN and TRAIN_SAMPLE are set by make test");
    static uint8_t all[1 << 17], out[1 << 17];
    long n = file_bytes(sample, all, sizeof all);
    ck_assert_int_gt(n, 3000 * 16);
    char a[256], b[256], m[256], bad[256], cmd[1200];
    temp_path(a, sizeof a, "merge-a.bin");
    temp_path(b, sizeof b, "merge-b.bin");
    temp_path(m, sizeof m, "merged.bin");
    temp_path(bad, sizeof bad, "merge-bad.bin");
    // a: records 0..1999; b: records 1000..2999, with record 1500's score changed (the same
    // position: its first record, a's, is the one kept).
    write_bytes(a, all, 2000 * 16);
    static uint8_t second[2000 * 16];
    memcpy(second, all + 1000 * 16, sizeof second);
    second[500 * 16 + 14] ^= 1;
    write_bytes(b, second, sizeof second);
    snprintf(cmd, sizeof cmd, "%s --merge %s %s %s > /dev/null", datagen, m, a, b);
    ck_assert_int_eq(system(cmd), 0);
    long got = file_bytes(m, out, sizeof out);
    // The sample has no repeated position (damka-datagen wrote it): the merge is records
    // 0..2999, each from the first file that has it.
    ck_assert_int_eq(got, 3000 * 16);
    ck_assert(memcmp(out, all, 2000 * 16) == 0);
    ck_assert(memcmp(out + 2000 * 16, second + 1000 * 16, 1000 * 16) == 0);
    // Merged with itself the file comes back unchanged.
    snprintf(cmd, sizeof cmd, "%s --merge %s %s %s > /dev/null", datagen, m, a, a);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(file_bytes(m, out, sizeof out), 2000 * 16);
    ck_assert(memcmp(out, all, 2000 * 16) == 0);
    write_bytes(bad, all, 17);
    snprintf(cmd, sizeof cmd, "%s --merge %s %s %s 2> /dev/null", datagen, m, a, bad);
    ck_assert_int_ne(system(cmd), 0);
    unlink(a), unlink(b), unlink(m), unlink(bad);
}
END_TEST

Suite *suite_eval(void)
{
    Suite *s = suite_create("eval");
    TCase *tc = tcase_create("learned");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_eval_windows_match_squares);
    tcase_add_test(tc, test_eval_colour_symmetric_any_weights);
    tcase_add_test(tc, test_eval_features_reproduce_eval);
    tcase_add_test(tc, test_eval_file_round_trip_and_refusals);
    tcase_add_test(tc, test_eval_file_refuses_other_versions);
    tcase_add_test(tc, test_eval_builtin_is_the_shipped_file);
    tcase_add_test(tc, test_eval_views_learn_tempo);
    tcase_add_test(tc, test_trainer_lowers_loss_and_weights_load_back);
    tcase_add_test(tc, test_trainer_step_decays);
    tcase_add_test(tc, test_trainer_holds_out_whole_blocks);
    tcase_add_test(tc, test_trainer_writes_the_handset_weights);
    tcase_add_test(tc, test_datagen_refuses_bad_arguments);
    tcase_add_test(tc, test_datagen_keeps_threatened_positions_on_request);
    tcase_add_test(tc, test_datagen_replays_pdn_games);
    tcase_add_test(tc, test_datagen_probes_the_databases_on_request);
    tcase_add_test(tc, test_datagen_merge);
    suite_add_tcase(s, tc);
    return s;
}
