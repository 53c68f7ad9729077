// SPDX-License-Identifier: MIT
// damka-train: fits the evaluation's weights (include/eval.h) to self-play records
// (tools/datagen/record.h). The evaluation is linear in its weights, so this is logistic
// regression: the prediction is sigmoid(eval / K), the target a blend of the game's result and
// the search's score, lambda * result + (1 - lambda) * sigmoid(score / K), the loss their
// cross-entropy; Adam on mini-batches, its step falling from --lr to --lr-final over the
// epochs, with the table weights (patterns, king squares, material) decayed toward 0 at every
// step (decoupled L2, as AdamW), the gradient of a batch summed on every thread. One position
// in 20 (by its key) is held out, and the loss on both parts is printed after every epoch.
// --holdout-block N holds out whole blocks of N consecutive records instead (one block in 20):
// the generator writes each game's positions together, so the held-out positions then come
// from games the training set has not seen, whose results it cannot have learned by heart (by
// key, the other positions of a held-out position's game are trained on, with its result).
// --named-only fits the named weights alone (the Texel tuning of the hand-set evaluation);
// --one-view fits one pattern table for both views (the side to move's windows and the
// opponent's, as in round 1) and writes it to both.
//
// Writes the weights rounded to the engine's integers, as a weights file (--out, for EvalFile;
// tools/ship_weights.sh makes one the built-in weights). --handset-out writes the hand-set
// weights the first round of data was played with (make datagen ROUND=1).
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "board.h"
#include "engine.h"
#include "eval.h"
#include "record.h"
#include "util.h"

enum {
    FILES_MAX = 64,
    THREADS_MAX = 64,
    // every weight: named first, then the tables in the order of eval.h (patterns, king
    // squares, material); of the pattern weights, the tables of king state 0 are the weights
    // themselves, those of each other king state what its tables add to them (so that L2
    // pulls a rare king state toward the common tables)
    NW = EVAL_PARAMS_MAX + EVAL_TABLE_WEIGHTS,
    HOLDOUT = 20, // one position in HOLDOUT is held out
};

typedef struct Row {
    int16_t base[EVAL_PARAMS_MAX];
    uint16_t own[EVAL_WINDOWS], enemy[EVAL_WINDOWS];
    uint32_t kings_own, kings_enemy;
    uint8_t king_state[EVAL_VIEWS];
    uint16_t material;
    uint8_t phase;
    float result; // 0 loss, 0.5 draw, 1 win for the side to move
    float score;  // the search's score, centi-men
} Row;

typedef struct Data {
    Row *rows;
    size_t n, cap;
} Data;

typedef struct Config {
    const char *files[FILES_MAX];
    int nfiles;
    int epochs, threads, named_only, one_view;
    size_t holdout_block; // 0: hold out by position key; else whole blocks of records
    double lambda, k, l2, lr, lr_final, scale;
    size_t batch, max_positions;
    const char *init, *out, *handset_out;
} Config;

// The evaluation before any training: the hand-set named weights, no patterns.
static const EvalParams HANDSET = {
    .man = 100,
    .king = 250,
    .adv = {0, 2, 4, 7, 11, 16, 24, 0},
    .center = 6,
    .edge = -4,
    .back_guard = 8,
    .mobility = 2,
    .runaway = {0, 0, 0, 20, 35, 55, 80, 0},
    .king_diagonal = 20,
    .king_mobility = 1,
    .draw_divisor = 16,
};

// The model: every weight as a double while training (named ones first, then the patterns).
typedef struct Model {
    int nnamed;
    int enemy_view; // the tables the opponent's windows read: 1, or 0 with --one-view
    double *w;      // NW of them
} Model;

// Index in Model.w of a pattern weight (view 0: the side to move's tables, 1: the opponent's)
// of king state ks: for ks 0 the weight itself, for the others what it adds to king state 0's.
static size_t pat_at(int ks, int view, int window, int state, int phase)
{
    return EVAL_PARAMS_MAX + eval_pattern_index(ks, view, window, state, phase);
}

// Index in Model.w of a king-square weight.
static size_t king_at(int view, int square, int phase)
{
    return EVAL_PARAMS_MAX + eval_king_square_index(view, square, phase);
}

// Index in Model.w of a material weight.
static size_t material_at(int index)
{
    return EVAL_PARAMS_MAX + EVAL_PATTERN_WEIGHTS + EVAL_KING_SQUARE_WEIGHTS + (size_t)index;
}

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

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33, x *= 0xFF51AFD7ED558CCDULL, x ^= x >> 33, x *= 0xC4CEB9FE1A85EC53ULL;
    return x ^ (x >> 33);
}

// Reads every record of path into the training or the held-out set. Positions the
// evaluation scales as drawn endings are left out (their score is not the linear part's).
static bool load(const char *path, Data *train, Data *valid, size_t max, size_t block,
                 size_t *skipped)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "damka-train: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    uint8_t rec[RECORD_BYTES];
    size_t at = 0;
    while ((max == 0 || train->n + valid->n < max) &&
           fread(rec, 1, RECORD_BYTES, f) == RECORD_BYTES) {
        Board b;
        int result, score;
        if (!record_decode(rec, &b, &result, &score)) {
            fprintf(stderr, "damka-train: %s: record %zu is not a position\n", path, at);
            fclose(f);
            return false;
        }
        bool held = block ? (at / block) % HOLDOUT == 0 : mix(b.key) % HOLDOUT == 0;
        at++;
        EvalFeatures ft;
        eval_features(&b, &ft);
        if (ft.drawish) {
            (*skipped)++;
            continue;
        }
        Row r;
        memset(&r, 0, sizeof r);
        for (int i = 0; i < eval_param_count(); i++)
            r.base[i] = (int16_t)ft.base[i];
        memcpy(r.own, ft.own, sizeof r.own);
        memcpy(r.enemy, ft.enemy, sizeof r.enemy);
        r.kings_own = ft.kings_own;
        r.kings_enemy = ft.kings_enemy;
        memcpy(r.king_state, ft.king_state, sizeof r.king_state);
        r.phase = (uint8_t)ft.phase;
        r.material = (uint16_t)ft.material;
        r.result = (float)(result + 1) / 2.0f;
        r.score = (float)score;
        if (!push_row(held ? valid : train, &r)) {
            fprintf(stderr, "damka-train: out of memory after %zu positions\n",
                    train->n + valid->n);
            fclose(f);
            return false;
        }
    }
    fclose(f);
    return true;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

// One phased term of a row: the opening weight at w[at], the ending one at w[at + 1], added
// (sign 1) or taken away (sign -1). The evaluation and its gradient walk the same list.
typedef struct Term {
    size_t at;
    int sign;
} Term;

enum { TERMS_MAX = EVAL_WINDOWS * 4 + SQUARE_COUNT };

static int row_terms(const Model *m, const Row *r, Term *t)
{
    int n = 0, ko = r->king_state[0], ke = r->king_state[1], ev = m->enemy_view;
    for (int k = 0; k < EVAL_WINDOWS; k++) {
        t[n++] = (Term){pat_at(0, 0, k, r->own[k], 0), 1};
        t[n++] = (Term){pat_at(0, ev, k, r->enemy[k], 0), -1};
        if (ko)
            t[n++] = (Term){pat_at(ko, 0, k, r->own[k], 0), 1};
        if (ke)
            t[n++] = (Term){pat_at(ke, ev, k, r->enemy[k], 0), -1};
    }
    for (uint32_t q = r->kings_own; q; q &= q - 1)
        t[n++] = (Term){king_at(0, __builtin_ctz(q), 0), 1};
    for (uint32_t q = r->kings_enemy; q; q &= q - 1)
        t[n++] = (Term){king_at(ev, __builtin_ctz(q), 0), -1};
    return n;
}

static double row_phase(const Row *r) { return r->phase / (double)EVAL_PHASE_MAX; }

// The model's evaluation of a row whose terms row_terms listed (t[0..n)).
static double model_eval(const Model *m, const Row *r, const Term *t, int n)
{
    const double *w = m->w;
    double s = 0;
    for (int i = 0; i < m->nnamed; i++)
        s += w[i] * r->base[i];
    double ph = row_phase(r), opening = 0, ending = 0;
    for (int i = 0; i < n; i++) {
        opening += t[i].sign * w[t[i].at];
        ending += t[i].sign * w[t[i].at + 1];
    }
    return s + opening * ph + ending * (1.0 - ph) + w[material_at(r->material)];
}

static double target(const Config *c, const Row *r, double k)
{
    return c->lambda * r->result + (1.0 - c->lambda) * sigmoid(r->score / k);
}

// ---- Work shared by the threads --------------------------------------------------------------

typedef struct Job {
    const Config *cfg;
    const Model *model;
    const Row *rows;
    size_t from, to;
    double k;
    double loss;  // summed
    double *grad; // NW of them (NULL: the loss only)
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    const Model *m = j->model;
    double loss = 0, *grad = j->grad;
    for (size_t i = j->from; i < j->to; i++) {
        const Row *r = &j->rows[i];
        Term terms[TERMS_MAX];
        int n = row_terms(m, r, terms);
        double p = sigmoid(model_eval(m, r, terms, n) / j->k), t = target(j->cfg, r, j->k);
        double pc = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
        loss -= t * log(pc) + (1 - t) * log(1 - pc);
        if (!grad)
            continue;
        double g = (p - t) / j->k; // d loss / d eval
        for (int q = 0; q < m->nnamed; q++)
            grad[q] += g * r->base[q];
        double ph = row_phase(r), go = g * ph, ge = g * (1.0 - ph);
        for (int q = 0; q < n; q++) {
            grad[terms[q].at] += terms[q].sign * go;
            grad[terms[q].at + 1] += terms[q].sign * ge;
        }
        grad[material_at(r->material)] += g;
    }
    j->loss = loss;
    return NULL;
}

// Mean loss of rows[from, to) on the configured threads; with grads (one array of NW a
// thread), also their gradient, summed into grads[0].
static double pass(const Config *c, const Model *m, const Row *rows, size_t from, size_t to,
                   double k, double **grads)
{
    Job jobs[THREADS_MAX];
    pthread_t tid[THREADS_MAX];
    bool started[THREADS_MAX] = {false};
    int t = c->threads;
    size_t n = to - from;
    for (int i = 0; i < t; i++) {
        jobs[i] = (Job){.cfg = c,
                        .model = m,
                        .rows = rows,
                        .k = k,
                        .from = from + n * (size_t)i / (size_t)t,
                        .to = from + n * (size_t)(i + 1) / (size_t)t,
                        .grad = grads ? grads[i] : NULL};
        if (grads)
            memset(grads[i], 0, NW * sizeof(double));
    }
    for (int i = 1; i < t; i++)
        started[i] = pthread_create(&tid[i], NULL, run_job, &jobs[i]) == 0;
    run_job(&jobs[0]);
    for (int i = 1; i < t; i++)
        if (!started[i])
            run_job(&jobs[i]);
    double loss = jobs[0].loss;
    for (int i = 1; i < t; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        loss += jobs[i].loss;
        if (grads)
            for (size_t q = 0; q < NW; q++)
                grads[0][q] += grads[i][q];
    }
    return n ? loss / (double)n : 0;
}

static double mean_loss(const Config *c, const Model *m, const Data *d, double k)
{
    return pass(c, m, d->rows, 0, d->n, k, NULL);
}

// K that fits the start weights to the game results best (golden-section search).
static double fit_k(const Config *c, const Model *m, const Data *d)
{
    Config results_only = *c;
    results_only.lambda = 1.0;
    double a = 20, b = 2000, g = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; it++) {
        double x1 = b - g * (b - a), x2 = a + g * (b - a);
        if (mean_loss(&results_only, m, d, x1) < mean_loss(&results_only, m, d, x2))
            b = x2;
        else
            a = x1;
    }
    return (a + b) / 2;
}

static void shuffle(Data *d, uint64_t *state)
{
    for (size_t i = d->n; i > 1; i--) {
        *state = mix(*state + 0x9E3779B97F4A7C15ULL);
        size_t j = (size_t)(*state % i);
        Row t = d->rows[i - 1];
        d->rows[i - 1] = d->rows[j];
        d->rows[j] = t;
    }
}

// ---- Weights in and out ----------------------------------------------------------------------

static void model_from(Model *m, const EvalWeights *w)
{
    m->nnamed = eval_param_count();
    for (int i = 0; i < m->nnamed; i++)
        m->w[i] = eval_param(w, i);
    for (int ks = 0; ks < EVAL_KING_STATES; ks++)
        for (int v = 0; v < EVAL_VIEWS; v++)
            for (int k = 0; k < EVAL_WINDOWS; k++)
                for (int s = 0; s < EVAL_WINDOW_STATES; s++)
                    for (int p = 0; p < 2; p++)
                        m->w[pat_at(ks, v, k, s, p)] =
                            w->pattern[ks][v][k][s][p] - (ks ? w->pattern[0][v][k][s][p] : 0);
    for (int v = 0; v < EVAL_VIEWS; v++)
        for (int s = 0; s < SQUARE_COUNT; s++)
            for (int p = 0; p < 2; p++)
                m->w[king_at(v, s, p)] = w->king_square[v][s][p];
    for (int i = 0; i < EVAL_MATERIAL_STATES; i++)
        m->w[material_at(i)] = w->material[i];
}

static int16_t to_i16(double x)
{
    x = round(x);
    return (int16_t)(x > 32767 ? 32767 : x < -32767 ? -32767 : x);
}

static void model_to(const Model *m, EvalWeights *w)
{
    for (int i = 0; i < m->nnamed; i++)
        *eval_param_ref(w, i) = (int)lround(m->w[i]);
    for (int v = 0; v < EVAL_VIEWS; v++) {
        int from = m->enemy_view == 0 ? 0 : v; // --one-view: view 0 for both
        for (int ks = 0; ks < EVAL_KING_STATES; ks++)
            for (int k = 0; k < EVAL_WINDOWS; k++)
                for (int s = 0; s < EVAL_WINDOW_STATES; s++)
                    for (int p = 0; p < 2; p++)
                        w->pattern[ks][v][k][s][p] =
                            to_i16(m->w[pat_at(0, from, k, s, p)] +
                                   (ks ? m->w[pat_at(ks, from, k, s, p)] : 0));
        for (int s = 0; s < SQUARE_COUNT; s++)
            for (int p = 0; p < 2; p++)
                w->king_square[v][s][p] = to_i16(m->w[king_at(from, s, p)]);
    }
    for (int i = 0; i < EVAL_MATERIAL_STATES; i++)
        w->material[i] = to_i16(m->w[material_at(i)]);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: damka-train --data FILE [--data FILE ...] [--epochs N (10)] [--lambda L "
            "(0.5)]\n"
            "       [--k K (0: fit to the results)] [--l2 R (0.0001)] [--lr A (1)]\n"
            "       [--lr-final A (--lr: no decay)] [--batch B (16384)]\n"
            "       [--threads T (2)] [--max-positions N (0: all)] [--named-only] [--one-view]\n"
            "       [--init WEIGHTS (the built-in ones)] [--out WEIGHTS]\n"
            "       [--scale S (1: every weight times S)]\n"
            "       [--holdout-block N (0: one position in 20 by key; else one block of N\n"
            "        consecutive records in 20, whole games)]\n"
            "   or: damka-train --handset-out WEIGHTS (the hand-set weights of round 1)\n");
}

static bool parse_args(int argc, char **argv, Config *c)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--named-only") == 0) {
            c->named_only = 1;
            continue;
        }
        if (strcmp(a, "--one-view") == 0) {
            c->one_view = 1;
            continue;
        }
        if (!v)
            return false;
        i++;
        char *end = NULL;
        errno = 0;
        if (strcmp(a, "--data") == 0 && c->nfiles < FILES_MAX)
            c->files[c->nfiles++] = v;
        else if (strcmp(a, "--init") == 0)
            c->init = v;
        else if (strcmp(a, "--out") == 0)
            c->out = v;
        else if (strcmp(a, "--handset-out") == 0)
            c->handset_out = v;
        else if (strcmp(a, "--epochs") == 0)
            c->epochs = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--threads") == 0)
            c->threads = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--batch") == 0)
            c->batch = args_count(v, &end);
        else if (strcmp(a, "--holdout-block") == 0)
            c->holdout_block = args_count(v, &end);
        else if (strcmp(a, "--max-positions") == 0)
            c->max_positions = args_count(v, &end);
        else if (strcmp(a, "--lambda") == 0)
            c->lambda = strtod(v, &end);
        else if (strcmp(a, "--k") == 0)
            c->k = strtod(v, &end);
        else if (strcmp(a, "--l2") == 0)
            c->l2 = strtod(v, &end);
        else if (strcmp(a, "--lr") == 0)
            c->lr = strtod(v, &end);
        else if (strcmp(a, "--lr-final") == 0)
            c->lr_final = strtod(v, &end);
        else if (strcmp(a, "--scale") == 0)
            c->scale = strtod(v, &end);
        else
            return false;
        if ((end && *end) || errno)
            return false;
    }
    if (c->lr_final == -1) // not given: no decay
        c->lr_final = c->lr;
    return (c->nfiles > 0 || c->handset_out) && c->epochs >= 0 && c->threads >= 1 &&
           c->threads <= THREADS_MAX && c->batch >= 1 && c->lambda >= 0 && c->lambda <= 1 &&
           c->k >= 0 && c->l2 >= 0 && c->lr > 0 && c->lr_final > 0 && c->scale > 0 && c->scale <= 4;
}

int main(int argc, char **argv)
{
    Config c = {.epochs = 10,
                .threads = 2,
                .lambda = 0.5,
                .l2 = 1e-4,
                .lr = 1.0,
                .lr_final = -1, // not given: parse_args makes it lr
                .batch = 16384,
                .scale = 1.0};
    util_standard_args(argc, argv, "damka-train", DAMKA_VERSION, usage);
    if (!parse_args(argc, argv, &c)) {
        usage(stderr);
        return 2;
    }
    engine_library_init();
    if (c.handset_out) {
        static EvalWeights hand; // zero patterns
        hand.params = HANDSET;
        char err[EVAL_ERR_MAX];
        if (!eval_save_file(c.handset_out, &hand, err, sizeof err)) {
            fprintf(stderr, "damka-train: %s\n", err);
            return 1;
        }
        return 0;
    }
    int status = 1;
    Data train = {0}, valid = {0};
    EvalWeights *weights = malloc(sizeof *weights);
    Model m = {.enemy_view = c.one_view ? 0 : 1, .w = calloc(NW, sizeof(double))};
    double *grads[THREADS_MAX] = {0}, *mom = calloc(NW, sizeof(double)),
           *var = calloc(NW, sizeof(double));
    for (int i = 0; i < c.threads; i++)
        grads[i] = malloc(NW * sizeof(double));
    if (!weights || !m.w || !mom || !var || !grads[c.threads - 1]) {
        fprintf(stderr, "damka-train: out of memory\n");
        goto out;
    }
    char err[EVAL_ERR_MAX];
    *weights = *eval_builtin();
    if (c.init && !eval_load_file(c.init, weights, err, sizeof err)) {
        fprintf(stderr, "damka-train: %s\n", err);
        goto out;
    }
    model_from(&m, weights);

    size_t skipped = 0;
    double t0 = util_now_s();
    for (int i = 0; i < c.nfiles; i++)
        if (!load(c.files[i], &train, &valid, c.max_positions, c.holdout_block, &skipped))
            goto out;
    if (train.n == 0 || valid.n == 0) {
        fprintf(stderr, "damka-train: too few positions (%zu)\n", train.n + valid.n);
        goto out;
    }
    printf("positions: %zu training, %zu held out (%zu drawn endings left out), read in %.1f s\n",
           train.n, valid.n, skipped, util_now_s() - t0);
    if (c.holdout_block)
        printf("held out: one block of %zu consecutive records in %d (whole games)\n",
               c.holdout_block, HOLDOUT);
    double k = c.k > 0 ? c.k : fit_k(&c, &m, &train);
    printf("K = %.1f%s, lambda = %.2f, l2 = %g, lr = %g to %g, batch %zu, %s\n", k,
           c.k > 0 ? "" : " (fitted to the results)", c.lambda, c.l2, c.lr, c.lr_final, c.batch,
           c.named_only ? "named weights only" : "named weights and patterns");
    printf("epoch 0: training loss %.6f, held-out loss %.6f\n", mean_loss(&c, &m, &train, k),
           mean_loss(&c, &m, &valid, k));
    fflush(stdout);

    uint64_t rng = 12345, step = 0;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    for (int epoch = 1; epoch <= c.epochs; epoch++) {
        double te = util_now_s();
        // The step size falls geometrically from lr in the first epoch to lr_final in the last:
        // large steps find the weights, small ones settle them (a constant step leaves them
        // jittering around the minimum by about its size).
        double lr =
            c.epochs > 1 ? c.lr * pow(c.lr_final / c.lr, (epoch - 1.0) / (c.epochs - 1.0)) : c.lr;
        shuffle(&train, &rng);
        for (size_t from = 0; from < train.n; from += c.batch) {
            size_t to = from + c.batch < train.n ? from + c.batch : train.n;
            pass(&c, &m, train.rows, from, to, k, grads);
            step++;
            double inv = 1.0 / (double)(to - from);
            double corr1 = 1 - pow(b1, (double)step), corr2 = 1 - pow(b2, (double)step);
            for (size_t q = 0; q < NW; q++) {
                bool named = q < EVAL_PARAMS_MAX;
                if (named ? (int)q >= m.nnamed : c.named_only)
                    continue;
                double g = grads[0][q] * inv;
                if (g == 0 && mom[q] == 0)
                    continue; // a pattern no position has used yet
                mom[q] = b1 * mom[q] + (1 - b1) * g;
                var[q] = b2 * var[q] + (1 - b2) * g * g;
                m.w[q] -= lr * (mom[q] / corr1) / (sqrt(var[q] / corr2) + eps);
                if (!named)
                    m.w[q] -= lr * c.l2 * m.w[q]; // decoupled weight decay (AdamW)
            }
        }
        printf("epoch %d: training loss %.6f, held-out loss %.6f (%.1f s)\n", epoch,
               mean_loss(&c, &m, &train, k), mean_loss(&c, &m, &valid, k), util_now_s() - te);
        fflush(stdout);
    }

    // The weights as the engine holds them (integers), and their loss; --scale multiplies every
    // weight first (the evaluation's unit against the search's margins), K with them.
    if (c.scale != 1.0) {
        for (size_t q = 0; q < NW; q++)
            m.w[q] *= c.scale;
        k *= c.scale;
        printf("every weight scaled by %g (K %.1f)\n", c.scale, k);
    }
    model_to(&m, weights);
    model_from(&m, weights);
    int used = 0;
    for (size_t q = EVAL_PARAMS_MAX; q < NW; q++)
        used += m.w[q] != 0;
    printf("rounded weights: held-out loss %.6f; %d of %d pattern, king-square and material "
           "weights not 0\n",
           mean_loss(&c, &m, &valid, k), used, (int)EVAL_TABLE_WEIGHTS);
    printf("named weights:");
    for (int i = 0; i < eval_param_count(); i++)
        printf(" %s=%d", eval_param_name(i), eval_param(weights, i));
    printf("\n");
    if (c.out && !eval_save_file(c.out, weights, err, sizeof err)) {
        fprintf(stderr, "damka-train: %s\n", err);
        goto out;
    }
    printf("done in %.1f s\n", util_now_s() - t0);
    status = 0;
out:
    free(train.rows);
    free(valid.rows);
    for (int i = 0; i < c.threads; i++)
        free(grads[i]);
    free(mom);
    free(var);
    free(m.w);
    free(weights);
    return status;
}
