// SPDX-License-Identifier: MIT
// damka-train-net: trains the evaluation network (include/net.h) on self-play records
// (tools/datagen/record.h) and writes it as a network file, in the engine's integers.
//
// The float network is the integer one before rounding: the first layer's sums clipped to
// [0, 1] (the engine's 0..NET_QA), the dense layer clipped to [0, 1], the output in men (the
// engine's output_scale is 100 centi-men). The prediction is sigmoid(100 * output / K), the
// target lambda * result + (1 - lambda) * sigmoid(score / K), as damka-train's; their
// cross-entropy is minimised by Adam on mini-batches, the step falling linearly from --lr to
// --lr-final, the gradient of a batch summed on every thread. The dense weights are kept within
// what int8 holds at the engine's scale. Held out: one block of --holdout-block consecutive
// records in 20 (whole games: the generator writes a game's positions together). The loss of
// both parts is printed after every epoch; at the end the integer network's scores are
// compared with the float network's on the held-out positions (the cost of quantisation).
// Drawn endings that the evaluation scales (eval_features' drawish) are left out, as
// damka-train leaves them out. Written in C, as damka-train: the network is small (about 51,000
// weights), its first layer sparse, and no dependency beyond the engine library is needed.
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "board.h"
#include "engine.h"
#include "eval.h"
#include "net.h"
#include "record.h"
#include "util.h"

enum { FILES_MAX = 64, THREADS_MAX = 64, HOLDOUT = 20, PIECES_MAX = 24 };

// One position: each point of view's active inputs (the side to move's first), its bucket
// and its labels.
typedef struct Row {
    uint8_t n;                    // pieces
    uint8_t bucket;               // dense weights
    uint8_t input[2][PIECES_MAX]; // [0] side to move's view, [1] the opponent's
    float result;                 // 0 loss, 0.5 draw, 1 win for the side to move
    float score;                  // the search's score, centi-men
} Row;

typedef struct Data {
    Row *rows;
    size_t n, cap;
} Data;

// The float network, every weight in one array (w1, b1, w2, b2, w3, b3 in that order).
enum {
    W1 = 0,
    B1 = W1 + NET_INPUTS * NET_HIDDEN,
    W2 = B1 + NET_HIDDEN,
    B2 = W2 + NET_BUCKETS * NET_L2 * 2 * NET_HIDDEN,
    W3 = B2 + NET_BUCKETS * NET_L2,
    B3 = W3 + NET_BUCKETS * NET_L2,
    NPARAMS = B3 + NET_BUCKETS,
};

typedef struct Config {
    const char *files[FILES_MAX];
    int nfiles, epochs, threads;
    size_t batch, max_positions, holdout_block;
    double lambda, k, lr, lr_final;
    uint64_t seed;
    const char *out;
} Config;

static const double OUTPUT_CENTIMEN = 100.0;   // an output of 1.0 is a man
static const double W2_LIMIT = 127.0 / NET_QB; // the largest dense weight int8 holds

static bool push_row(Data *d, const Row *r)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 1 << 16;
        Row *rows = realloc(d->rows, cap * sizeof *rows);
        if (!rows)
            return false;
        d->rows = rows, d->cap = cap;
    }
    d->rows[d->n++] = *r;
    return true;
}

static void row_of(const Board *b, Row *r)
{
    memset(r, 0, sizeof *r);
    Side us = b->side;
    for (int colour = 0; colour < 2; colour++)
        for (Bitboard p = b->pieces[colour]; p; p &= p - 1) {
            int bit = __builtin_ctzll(p);
            bool king = (b->kings >> bit) & 1;
            r->input[0][r->n] = (uint8_t)net_input(us, (Side)colour, king, bit);
            r->input[1][r->n] = (uint8_t)net_input(side_flip(us), (Side)colour, king, bit);
            r->n++;
        }
    r->bucket = (uint8_t)net_bucket(r->n);
}

static bool load(const Config *c, const char *path, Data *train, Data *valid, size_t *skipped)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "damka-train-net: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    uint8_t rec[RECORD_BYTES];
    size_t at = 0;
    while ((c->max_positions == 0 || train->n + valid->n < c->max_positions) &&
           fread(rec, 1, RECORD_BYTES, f) == RECORD_BYTES) {
        Board b;
        int result, score;
        if (!record_decode(rec, &b, &result, &score)) {
            fprintf(stderr, "damka-train-net: %s: record %zu is not a position\n", path, at);
            fclose(f);
            return false;
        }
        bool held = (at / c->holdout_block) % HOLDOUT == 0;
        at++;
        if (eval_drawish(&b)) {
            (*skipped)++;
            continue;
        }
        Row r;
        row_of(&b, &r);
        r.result = (float)(result + 1) / 2.0f;
        r.score = (float)score;
        if (!push_row(held ? valid : train, &r)) {
            fprintf(stderr, "damka-train-net: out of memory after %zu positions\n",
                    train->n + valid->n);
            fclose(f);
            return false;
        }
    }
    fclose(f);
    return true;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

// The float network's output (men) for row r; with grad, adds the gradient of the loss
// (cross-entropy against target t) to grad and returns the loss instead.
static double forward(const float *w, const Row *r, double t, double k, float *grad)
{
    float acc[2][NET_HIDDEN], x[2 * NET_HIDDEN], z2[NET_L2], h[NET_L2];
    for (int v = 0; v < 2; v++) {
        memcpy(acc[v], w + B1, sizeof acc[v]);
        for (int p = 0; p < r->n; p++) {
            const float *row = w + W1 + (size_t)r->input[v][p] * NET_HIDDEN;
            for (int i = 0; i < NET_HIDDEN; i++)
                acc[v][i] += row[i];
        }
        for (int i = 0; i < NET_HIDDEN; i++)
            x[v * NET_HIDDEN + i] = (float)clamp01(acc[v][i]);
    }
    int bk = r->bucket;
    const float *w2 = w + W2 + (size_t)bk * NET_L2 * 2 * NET_HIDDEN;
    double out = w[B3 + bk];
    for (int j = 0; j < NET_L2; j++) {
        const float *row = w2 + (size_t)j * 2 * NET_HIDDEN;
        float s = w[B2 + bk * NET_L2 + j];
        for (int i = 0; i < 2 * NET_HIDDEN; i++)
            s += row[i] * x[i];
        z2[j] = s;
        h[j] = (float)clamp01(s);
        out += w[W3 + bk * NET_L2 + j] * h[j];
    }
    if (!grad)
        return out;
    double p = sigmoid(out * OUTPUT_CENTIMEN / k);
    double pc = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
    double loss = -(t * log(pc) + (1 - t) * log(1 - pc));
    float g = (float)((p - t) * OUTPUT_CENTIMEN / k); // d loss / d out
    grad[B3 + bk] += g;
    float gx[2 * NET_HIDDEN] = {0};
    float *g2 = grad + W2 + (size_t)bk * NET_L2 * 2 * NET_HIDDEN;
    for (int j = 0; j < NET_L2; j++) {
        grad[W3 + bk * NET_L2 + j] += g * h[j];
        if (z2[j] <= 0 || z2[j] >= 1)
            continue;
        float gz = g * w[W3 + bk * NET_L2 + j];
        grad[B2 + bk * NET_L2 + j] += gz;
        const float *row = w2 + (size_t)j * 2 * NET_HIDDEN;
        float *grow = g2 + (size_t)j * 2 * NET_HIDDEN;
        for (int i = 0; i < 2 * NET_HIDDEN; i++) {
            grow[i] += gz * x[i];
            gx[i] += gz * row[i];
        }
    }
    for (int v = 0; v < 2; v++) {
        float ga[NET_HIDDEN];
        for (int i = 0; i < NET_HIDDEN; i++) {
            float a = acc[v][i];
            ga[i] = a > 0 && a < 1 ? gx[v * NET_HIDDEN + i] : 0;
            grad[B1 + i] += ga[i];
        }
        for (int q = 0; q < r->n; q++) {
            float *grow = grad + W1 + (size_t)r->input[v][q] * NET_HIDDEN;
            for (int i = 0; i < NET_HIDDEN; i++)
                grow[i] += ga[i];
        }
    }
    return loss;
}

static double target(const Config *c, const Row *r)
{
    return c->lambda * r->result + (1 - c->lambda) * sigmoid(r->score / c->k);
}

typedef struct Job {
    const Config *c;
    const float *w;
    const Row *rows;
    size_t from, to;
    float *grad; // NULL: loss only
    double loss;
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    j->loss = 0;
    for (size_t i = j->from; i < j->to; i++) {
        const Row *r = &j->rows[i];
        double t = target(j->c, r);
        if (j->grad) {
            j->loss += forward(j->w, r, t, j->c->k, j->grad);
        } else {
            double p = sigmoid(forward(j->w, r, t, j->c->k, NULL) * OUTPUT_CENTIMEN / j->c->k);
            p = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
            j->loss += -(t * log(p) + (1 - t) * log(1 - p));
        }
    }
    return NULL;
}

// Loss summed over rows[from..to) on every thread; with grads, each thread's gradient summed
// into grads[0].
static double pass(const Config *c, const float *w, const Row *rows, size_t from, size_t to,
                   float **grads)
{
    Job jobs[THREADS_MAX];
    pthread_t th[THREADS_MAX];
    size_t n = to - from, per = (n + (size_t)c->threads - 1) / (size_t)c->threads;
    int started = 0;
    for (int t = 0; t < c->threads; t++) {
        size_t a = from + (size_t)t * per, b = a + per < to ? a + per : to;
        if (a >= b)
            break;
        if (grads)
            memset(grads[t], 0, NPARAMS * sizeof(float));
        jobs[t] = (Job){c, w, rows, a, b, grads ? grads[t] : NULL, 0};
        th[t] = 0;
        // The others on threads of their own; job 0 (below) and any that cannot start, here.
        if (t > 0 && pthread_create(&th[t], NULL, run_job, &jobs[t]) != 0) {
            th[t] = 0;
            run_job(&jobs[t]);
        }
        started = t + 1;
    }
    if (started > 0)
        run_job(&jobs[0]);
    double loss = 0;
    for (int t = 0; t < started; t++) {
        if (t > 0 && th[t])
            pthread_join(th[t], NULL);
        loss += jobs[t].loss;
        if (grads && t > 0)
            for (size_t i = 0; i < NPARAMS; i++)
                grads[0][i] += grads[t][i];
    }
    return loss;
}

static double mean_loss(const Config *c, const float *w, const Data *d)
{
    return d->n ? pass(c, w, d->rows, 0, d->n, NULL) / (double)d->n : 0;
}

static double uniform(uint64_t *s) { return (double)(util_random(s) >> 11) / 9007199254740992.0; }

static void init_weights(float *w, uint64_t seed)
{
    uint64_t s = seed | 1;
    // Small positive first-layer weights: a position of 24 pieces lands inside (0, 1).
    for (size_t i = W1; i < B1; i++)
        w[i] = (float)((uniform(&s) * 2 - 1) * 0.08);
    for (size_t i = B1; i < W2; i++)
        w[i] = 0.25f;
    double a2 = sqrt(3.0 / NET_HIDDEN);
    for (size_t i = W2; i < B2; i++)
        w[i] = (float)((uniform(&s) * 2 - 1) * a2);
    for (size_t i = B2; i < W3; i++)
        w[i] = 0;
    for (size_t i = W3; i < B3; i++)
        w[i] = (float)((uniform(&s) * 2 - 1) * 0.5);
    for (size_t i = B3; i < NPARAMS; i++)
        w[i] = 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The backward pass checked against central differences of the loss on the first rows, for
// weights drawn from each block (w1, b1, w2, b2, w3, b3): prints the largest of the blocks'
// median relative errors (the tests read it; a kink of a clipped unit between the two
// evaluations can spoil a single weight, not a block's median).
static void check_gradient(const Config *c, float *w, const Data *d, float **grads)
{
    enum { ROWS = 64, PER_BLOCK = 15 };
    size_t rows = d->n < ROWS ? d->n : ROWS;
    pass(c, w, d->rows, 0, rows, grads);
    static const size_t BLOCK[7] = {W1, B1, W2, B2, W3, B3, NPARAMS};
    double worst = 0;
    int checked = 0;
    uint64_t s = 12345;
    for (int b = 0; b < 6; b++) {
        double err[PER_BLOCK];
        int n = 0;
        for (int k = 0; k < PER_BLOCK; k++) {
            size_t i = BLOCK[b] + (size_t)(util_random(&s) % (BLOCK[b + 1] - BLOCK[b]));
            float keep = w[i];
            const float h = 1e-2f;
            w[i] = keep + h;
            double up = pass(c, w, d->rows, 0, rows, NULL);
            w[i] = keep - h;
            double down = pass(c, w, d->rows, 0, rows, NULL);
            w[i] = keep;
            double numeric = (up - down) / (2 * h), analytic = grads[0][i];
            if (fabs(numeric) + fabs(analytic) < 1e-6)
                continue; // a weight no row of the sample reaches
            err[n++] = fabs(numeric - analytic) / (fabs(numeric) + fabs(analytic));
        }
        qsort(err, (size_t)n, sizeof err[0], by_value);
        checked += n;
        if (n && err[n / 2] > worst)
            worst = err[n / 2];
    }
    printf("gradient check: %d weights, largest block median relative error %.4f\n", checked,
           worst);
}

static void shuffle(Data *d, uint64_t *state)
{
    for (size_t i = d->n; i > 1; i--) {
        size_t j = (size_t)(util_random(state) % i);
        Row t = d->rows[i - 1];
        d->rows[i - 1] = d->rows[j];
        d->rows[j] = t;
    }
}

static int32_t round_to(double x, double lo, double hi)
{
    x = x < lo ? lo : x > hi ? hi : x;
    return (int32_t)lrint(x);
}

// The engine's integers of the float network.
static void quantise(const float *w, NetWeights *q)
{
    for (int i = 0; i < NET_INPUTS; i++)
        for (int j = 0; j < NET_HIDDEN; j++)
            q->w1[i][j] = (int16_t)round_to(w[W1 + i * NET_HIDDEN + j] * NET_QA, -32767, 32767);
    for (int j = 0; j < NET_HIDDEN; j++)
        q->b1[j] = (int16_t)round_to(w[B1 + j] * NET_QA, -32767, 32767);
    for (int b = 0; b < NET_BUCKETS; b++) {
        for (int j = 0; j < NET_L2; j++) {
            for (int i = 0; i < 2 * NET_HIDDEN; i++)
                q->w2[b][j][i] = (int8_t)round_to(
                    w[W2 + ((size_t)b * NET_L2 + j) * 2 * NET_HIDDEN + i] * NET_QB, -127, 127);
            q->b2[b][j] = round_to(w[B2 + b * NET_L2 + j] * NET_QA * NET_QB, -2e9, 2e9);
            q->w3[b][j] = (int16_t)round_to(w[W3 + b * NET_L2 + j] * NET_QB, -32767, 32767);
        }
        q->b3[b] = round_to(w[B3 + b] * NET_QA * NET_QB, -2e9, 2e9);
    }
    q->output_scale = (int32_t)OUTPUT_CENTIMEN;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: damka-train-net --data FILE [--data FILE ...] --out NET [--epochs N (10)]\n"
            "       [--lambda L (0.5)] [--k K (90)] [--lr A (0.001)] [--lr-final A (--lr)]\n"
            "       [--batch B (16384)] [--threads T (2)] [--max-positions N (0: all)]\n"
            "       [--holdout-block N (4096)] [--seed S (1)]\n");
}

static bool parse_args(int argc, char **argv, Config *c)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return false;
        i++;
        char *end = NULL;
        errno = 0;
        if (strcmp(a, "--data") == 0 && c->nfiles < FILES_MAX)
            c->files[c->nfiles++] = v;
        else if (strcmp(a, "--out") == 0)
            c->out = v;
        else if (strcmp(a, "--epochs") == 0)
            c->epochs = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--threads") == 0)
            c->threads = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--batch") == 0)
            c->batch = args_count(v, &end);
        else if (strcmp(a, "--max-positions") == 0)
            c->max_positions = args_count(v, &end);
        else if (strcmp(a, "--holdout-block") == 0)
            c->holdout_block = args_count(v, &end);
        else if (strcmp(a, "--seed") == 0)
            c->seed = args_count(v, &end);
        else if (strcmp(a, "--lambda") == 0)
            c->lambda = strtod(v, &end);
        else if (strcmp(a, "--k") == 0)
            c->k = strtod(v, &end);
        else if (strcmp(a, "--lr") == 0)
            c->lr = strtod(v, &end);
        else if (strcmp(a, "--lr-final") == 0)
            c->lr_final = strtod(v, &end);
        else
            return false;
        if ((end && *end) || errno)
            return false;
    }
    if (c->lr_final < 0)
        c->lr_final = c->lr;
    return c->nfiles > 0 && c->out && c->epochs >= 0 && c->threads >= 1 &&
           c->threads <= THREADS_MAX && c->batch >= 1 && c->holdout_block >= 1 && c->lambda >= 0 &&
           c->lambda <= 1 && c->k > 0 && c->lr > 0 && c->lr_final > 0;
}

int main(int argc, char **argv)
{
    Config c = {.epochs = 10,
                .threads = 2,
                .batch = 16384,
                .holdout_block = 4096,
                .lambda = 0.5,
                .k = 90,
                .lr = 0.001,
                .lr_final = -1,
                .seed = 1};
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (!parse_args(argc, argv, &c)) {
        usage(stderr);
        return 2;
    }
    engine_library_init();
    Data train = {0}, valid = {0};
    size_t skipped = 0;
    for (int i = 0; i < c.nfiles; i++)
        if (!load(&c, c.files[i], &train, &valid, &skipped))
            return 1;
    if (train.n == 0) {
        fprintf(stderr, "damka-train-net: no training positions\n");
        return 1;
    }
    printf("positions: %zu training, %zu held out, %zu drawn endings left out\n", train.n, valid.n,
           skipped);
    float *w = malloc(NPARAMS * sizeof *w), *m = calloc(NPARAMS, sizeof *m),
          *v = calloc(NPARAMS, sizeof *v);
    float *grads[THREADS_MAX] = {0};
    for (int t = 0; t < c.threads; t++)
        grads[t] = malloc(NPARAMS * sizeof(float));
    NetWeights *q = calloc(1, sizeof *q);
    if (!w || !m || !v || !grads[c.threads - 1] || !q) {
        fprintf(stderr, "damka-train-net: out of memory\n");
        return 1;
    }
    init_weights(w, c.seed);
    check_gradient(&c, w, &train, grads);
    printf("epoch 0: training %.6f, held out %.6f\n", mean_loss(&c, w, &train),
           mean_loss(&c, w, &valid));
    fflush(stdout);
    uint64_t rng = c.seed * 0x9E3779B97F4A7C15ULL + 1;
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    size_t batches = (train.n + c.batch - 1) / c.batch, step = 0,
           total = batches * (size_t)(c.epochs > 0 ? c.epochs : 1);
    for (int epoch = 1; epoch <= c.epochs; epoch++) {
        shuffle(&train, &rng);
        double sum = 0;
        for (size_t from = 0; from < train.n; from += c.batch, step++) {
            size_t to = from + c.batch < train.n ? from + c.batch : train.n;
            sum += pass(&c, w, train.rows, from, to, grads);
            double lr = c.lr + (c.lr_final - c.lr) * (double)step / (double)total;
            double b1t = 1 - pow(beta1, (double)(step + 1)),
                   b2t = 1 - pow(beta2, (double)(step + 1));
            float scale = 1.0f / (float)(to - from);
            for (size_t i = 0; i < NPARAMS; i++) {
                float g = grads[0][i] * scale;
                m[i] = (float)(beta1 * m[i] + (1 - beta1) * g);
                v[i] = (float)(beta2 * v[i] + (1 - beta2) * g * g);
                w[i] -= (float)(lr * (m[i] / b1t) / (sqrt(v[i] / b2t) + eps));
            }
            for (size_t i = W2; i < B2; i++)
                w[i] = w[i] > W2_LIMIT    ? (float)W2_LIMIT
                       : w[i] < -W2_LIMIT ? (float)-W2_LIMIT
                                          : w[i];
        }
        printf("epoch %d: training %.6f, held out %.6f\n", epoch, sum / (double)train.n,
               mean_loss(&c, w, &valid));
        fflush(stdout);
    }
    // The cost of quantisation: the engine's integer scores against the float network's.
    quantise(w, q);
    const Data *check = valid.n ? &valid : &train;
    double diff = 0, worst = 0;
    size_t n = check->n < 20000 ? check->n : 20000;
    for (size_t i = 0; i < n; i++) {
        const Row *r = &check->rows[i];
        NetAccumulator acc;
        for (int view = 0; view < 2; view++) {
            memcpy(acc.sum[view], q->b1, sizeof q->b1);
            for (int p = 0; p < r->n; p++)
                for (int j = 0; j < NET_HIDDEN; j++)
                    acc.sum[view][j] = (int16_t)(acc.sum[view][j] + q->w1[r->input[view][p]][j]);
        }
        int integer = net_output(q, r->n, acc.sum[0], acc.sum[1]); // view 0: the side to move's
        double fl = forward(w, r, 0, c.k, NULL) * OUTPUT_CENTIMEN, d = fabs(integer - fl);
        diff += d;
        worst = d > worst ? d : worst;
    }
    printf("quantisation: %zu positions, mean |integer - float| %.2f centi-men, worst %.1f\n", n,
           n ? diff / (double)n : 0.0, worst);
    // The start position, as the engine scores it from the file (the tests read this line).
    Board start;
    board_start(&start);
    Row sr;
    row_of(&start, &sr);
    NetAccumulator sa;
    net_refresh(q, &start, &sa);
    printf("start position: float %.1f, integer %d centi-men\n",
           forward(w, &sr, 0, c.k, NULL) * OUTPUT_CENTIMEN, net_evaluate(q, &start, &sa));
    char err[NET_ERR_MAX];
    bool ok = net_save_file(c.out, q, err, sizeof err);
    if (ok)
        printf("wrote %s\n", c.out);
    else
        fprintf(stderr, "damka-train-net: %s\n", err);
    for (int t = 0; t < c.threads; t++)
        free(grads[t]);
    free(w), free(m), free(v), free(q), free(train.rows), free(valid.rows);
    return ok ? 0 : 1;
}
