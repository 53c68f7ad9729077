// SPDX-License-Identifier: MIT
// Owns the static evaluation: its named terms (material, men's advancement and structure,
// mobility, runaway men, kings on the long diagonal), the pattern tables of the
// board's 4x4 windows, the king squares, the material table, known drawn endings, and the weights
// file.
#include "eval.h"

#include <assert.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "board.h"
#include "tables.h"
#include "util.h"

// The named weights, in the order of the trainer and the weights file, each with the term of
// `eval` it belongs to.
enum { T_MATERIAL, T_ADVANCE, T_STRUCTURE, T_MOBILITY, T_RUNAWAY, T_KINGS, TERM_COUNT };
static const char *const TERM_NAMES[TERM_COUNT] = {"material", "advance", "structure",
                                                   "mobility", "runaway", "kings"};
enum {
    F_MAN,
    F_KING,
    F_ADV1,
    F_ADV6 = F_ADV1 + 5,
    F_CENTER,
    F_EDGE,
    F_BACK,
    F_MOBILITY,
    F_RUN3,
    F_RUN6 = F_RUN3 + 3,
    F_KING_DIAGONAL,
    F_KING_MOBILITY,
    F_COUNT
};

typedef struct NamedParam {
    const char *name;
    size_t offset;
    int term;
} NamedParam;

#define P(field, term)                                                                             \
    {                                                                                              \
#field, offsetof(EvalParams, field), term                                                  \
    }
#define PA(field, i, term)                                                                         \
    {                                                                                              \
#field "[" #i "]", offsetof(EvalParams, field) + (i) * sizeof(int), term                   \
    }
static const NamedParam PARAMS[F_COUNT] = {
    P(man, T_MATERIAL),        P(king, T_MATERIAL),        PA(adv, 1, T_ADVANCE),
    PA(adv, 2, T_ADVANCE),     PA(adv, 3, T_ADVANCE),      PA(adv, 4, T_ADVANCE),
    PA(adv, 5, T_ADVANCE),     PA(adv, 6, T_ADVANCE),      P(center, T_STRUCTURE),
    P(edge, T_STRUCTURE),      P(back_guard, T_STRUCTURE), P(mobility, T_MOBILITY),
    PA(runaway, 3, T_RUNAWAY), PA(runaway, 4, T_RUNAWAY),  PA(runaway, 5, T_RUNAWAY),
    PA(runaway, 6, T_RUNAWAY), P(king_diagonal, T_KINGS),  P(king_mobility, T_KINGS),
};
#undef P
#undef PA
_Static_assert((int)F_COUNT <= (int)EVAL_PARAMS_MAX, "EvalFeatures.base holds every named weight");

int eval_param_count(void) { return F_COUNT; }
const char *eval_param_name(int i) { return PARAMS[i].name; }
int *eval_param_ref(EvalWeights *w, int i)
{
    return (int *)(void *)((char *)&w->params + PARAMS[i].offset);
}
int eval_param(const EvalWeights *w, int i)
{
    int v;
    memcpy(&v, (const char *)&w->params + PARAMS[i].offset, sizeof v);
    return v;
}

// Masks and tables built once: the forward cone of each square for each side, central
// squares, and the squares of each window.
static Bitboard cone[2][BIT_COUNT]; // by bit, so the loop over men needs no square lookup
static Bitboard rank_mask[2][8];    // [side][rank counted from that side]
static Bitboard center_mask, edge_mask, back_rank[2], diagonal_mask;
// The eight dark squares of window k as padded bits. In the padded layout a bit's index grows
// with the rank and, within a rank, with the file: the order of a window's base-3 digits
// (digit 2 * rank-in-window + k for the k-th dark square of that rank from the left). So the
// men of a window, gathered in bit order, are the binary digits of its index, and base3 maps
// those eight bits to the base-3 number with the same digits.
static Bitboard window_mask[EVAL_WINDOWS];
static uint8_t window_bit[EVAL_WINDOWS][8]; // the same bits in order, for machines without pext
static uint16_t base3[256];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool initialised;    // eval_init has run (checked by asserts)
static EvalWeights builtin; // read from the built-in weights file by eval_init

static void build_windows(void)
{
    for (int i = 0; i < 256; i++)
        for (int j = 7, p = 0; j >= 0; j--) // Horner's rule from the highest digit
            base3[i] = (uint16_t)(p = 3 * p + ((i >> j) & 1));
    for (int k = 0; k < EVAL_WINDOWS; k++) {
        int cx = 2 * (k % 3), cy = 2 * (k / 3), n = 0; // corners at files and ranks 0, 2, 4
        for (int y = cy; y < cy + 4; y++)
            for (int x = cx; x < cx + 4; x++)
                if ((x + y) % 2 == 0) { // a dark square (a1 is dark)
                    Bitboard bb = g_square_bb[tables_square_at(x, y)];
                    window_mask[k] |= bb;
                    window_bit[k][n++] = (uint8_t)bb_lsb(bb);
                }
    }
}

static void build_masks(void)
{
    static const char *const centre[] = {"c3", "e3", "d4", "f4", "c5", "e5", "d6", "f6"};
    for (int i = 0; i < 8; i++)
        center_mask |= g_square_bb[tables_square_at(centre[i][0] - 'a', centre[i][1] - '1')];
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        int x = tables_file(s), y = tables_rank(s);
        if (x == 0 || x == 7)
            edge_mask |= g_square_bb[s];
        if (x == y)
            diagonal_mask |= g_square_bb[s];
        // The squares a man could reach or be stopped from on its way to the last rank: the
        // triangle ahead of it, widening one file per rank.
        for (Square t = 0; t < SQUARE_COUNT; t++) {
            int tx = tables_file(t), ty = tables_rank(t);
            int dx = tx > x ? tx - x : x - tx;
            int bit = bb_lsb(g_square_bb[s]);
            if (ty > y && dx <= ty - y + 1)
                cone[SIDE_WHITE][bit] |= g_square_bb[t];
            if (ty < y && dx <= y - ty + 1)
                cone[SIDE_BLACK][bit] |= g_square_bb[t];
        }
        rank_mask[SIDE_WHITE][y] |= g_square_bb[s];
        rank_mask[SIDE_BLACK][7 - y] |= g_square_bb[s];
    }
    back_rank[SIDE_WHITE] = BB_RANK1;
    back_rank[SIDE_BLACK] = BB_RANK8;
    build_windows();
}

// The board turned around (square (x, y) to (7 - x, 7 - y)): in the padded layout bit i goes
// to bit 35 - i, and the ghosts to ghosts.
static Bitboard turn_around(Bitboard b)
{
    b = __builtin_bswap64(b);
    b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    return b >> 28;
}

// The men of b on the squares of window k, gathered in bit order.
static inline unsigned window_bits(Bitboard b, int k)
{
#ifdef __BMI2__
    return (unsigned)_pext_u64(b, window_mask[k]);
#else
    unsigned v = 0;
    for (int i = 0; i < 8; i++)
        v |= (unsigned)((b >> window_bit[k][i]) & 1) << i;
    return v;
#endif
}

// The window states of a side whose men are `own` and whose opponent's are `enemy`, both seen
// from that side (its men moving up).
static void window_states(Bitboard own, Bitboard enemy, uint16_t out[EVAL_WINDOWS])
{
    assert(!(own & enemy));
    for (int k = 0; k < EVAL_WINDOWS; k++) {
        out[k] = (uint16_t)(base3[window_bits(own, k)] + 2 * base3[window_bits(enemy, k)]);
        assert(out[k] < EVAL_WINDOW_STATES);
    }
}

static int quiet_moves(const Board *b, Side s, int *king_moves)
{
    Bitboard own = b->pieces[s], empty = BB_VALID & ~(b->pieces[0] | b->pieces[1]);
    Bitboard men = own & ~b->kings;
    int first = s == SIDE_WHITE ? DIR_UR : DIR_DR, n = 0;
    for (int d = first; d < first + 2; d++)
        n += bb_count(bb_shift(men, d) & empty);
    *king_moves = 0;
    for (Bitboard k = own & b->kings; k; k = bb_pop(k))
        for (int d = 0; d < DIR_COUNT; d++)
            for (Bitboard r = bb_shift(k & -k, d) & empty; r; r = bb_shift(r, d) & empty)
                (*king_moves)++;
    return n;
}

// One named term: weight times count added to *score, and the count to counts[f] when counts
// is not NULL.
static inline __attribute__((always_inline)) void term(int *score, int *counts, int f, int weight,
                                                       int n)
{
    *score += weight * n;
    if (counts)
        counts[f] += n;
}

// The named terms of side s: returns their weighted sum, and when counts is not NULL adds each
// count to it (for the trainer and `eval`). Inlined with counts NULL, the evaluation's own call
// keeps no counts at all.
static inline __attribute__((always_inline)) int side_terms(const EvalParams *p, const Board *b,
                                                            Side s, int *counts)
{
    Side o = side_flip(s);
    Bitboard men = b->pieces[s] & ~b->kings, kings = b->pieces[s] & b->kings;
    Bitboard enemy = b->pieces[o], enemy_men = enemy & ~b->kings;
    int score = 0;
    term(&score, counts, F_MAN, p->man, bb_count(men));
    term(&score, counts, F_KING, p->king, bb_count(kings));
    for (int r = 1; r < 7; r++)
        term(&score, counts, F_ADV1 + r - 1, p->adv[r], bb_count(men & rank_mask[s][r]));
    // A man whose whole path is free of enemy pieces promotes unless a king comes.
    if (!(enemy & b->kings))
        for (int r = 3; r < 7; r++)
            for (Bitboard m = men & rank_mask[s][r]; m; m = bb_pop(m))
                if (!(cone[s][bb_lsb(m)] & enemy))
                    term(&score, counts, F_RUN3 + r - 3, p->runaway[r], 1);
    term(&score, counts, F_CENTER, p->center, bb_count(men & center_mask));
    term(&score, counts, F_EDGE, p->edge, bb_count(men & edge_mask));
    if (enemy_men)
        term(&score, counts, F_BACK, p->back_guard, bb_count(men & back_rank[s]));
    int king_moves;
    term(&score, counts, F_MOBILITY, p->mobility, quiet_moves(b, s, &king_moves));
    term(&score, counts, F_KING_MOBILITY, p->king_mobility, king_moves);
    if ((kings & diagonal_mask) && !(enemy & b->kings & diagonal_mask))
        term(&score, counts, F_KING_DIAGONAL, p->king_diagonal, 1);
    return score;
}

// Known drawn endings: a lone king against one or two kings, or against three kings when it
// holds the long diagonal, with no men on the board.
static bool is_drawish(const Board *b)
{
    if ((b->pieces[0] | b->pieces[1]) & ~b->kings)
        return false;
    for (int weak = 0; weak < 2; weak++) {
        int nw = bb_count(b->pieces[weak]), ns = bb_count(b->pieces[weak ^ 1]);
        if (nw != 1)
            continue;
        if (ns <= 2)
            return true;
        if (ns == 3 && (b->pieces[weak] & diagonal_mask))
            return true;
    }
    return false;
}

bool eval_drawish(const Board *b) { return is_drawish(b); }

// The squares of the kings of bitboard k, one bit a square.
static uint32_t king_squares(Bitboard k)
{
    uint32_t out = 0;
    for (; k; k = bb_pop(k))
        out |= 1u << g_bit_square[bb_lsb(k)];
    return out;
}

// A count of one kind of piece as the material table reads it (more than 12 as 12).
static int material_count(int n)
{
    return n < EVAL_MATERIAL_COUNT - 1 ? n : EVAL_MATERIAL_COUNT - 1;
}

int eval_material_index(int own_men, int own_kings, int enemy_men, int enemy_kings)
{
    enum { C = EVAL_MATERIAL_COUNT };
    assert(own_men >= 0 && own_kings >= 0 && enemy_men >= 0 && enemy_kings >= 0);
    return ((material_count(own_men) * C + material_count(own_kings)) * C +
            material_count(enemy_men)) *
               C +
           material_count(enemy_kings);
}

// The window states and king squares of both sides, the phase, the material balance and the
// drawn-ending flag of b.
static inline __attribute__((always_inline)) void pattern_features(const Board *b, EvalFeatures *f)
{
    Bitboard wm = b->pieces[SIDE_WHITE] & ~b->kings, bm = b->pieces[SIDE_BLACK] & ~b->kings;
    bool white = b->side == SIDE_WHITE;
    int nwm = bb_count(wm), nbm = bb_count(bm);
    int nwk = bb_count(b->pieces[SIDE_WHITE] & b->kings);
    int nbk = bb_count(b->pieces[SIDE_BLACK] & b->kings);
    f->material =
        white ? eval_material_index(nwm, nwk, nbm, nbk) : eval_material_index(nbm, nbk, nwm, nwk);
    window_states(wm, bm, white ? f->own : f->enemy);
    window_states(turn_around(bm), turn_around(wm), white ? f->enemy : f->own);
    uint32_t wk = 0, bk = 0; // each side's kings seen from its own side
    if (b->kings) {
        wk = king_squares(b->pieces[SIDE_WHITE] & b->kings);
        bk = king_squares(turn_around(b->pieces[SIDE_BLACK] & b->kings));
    }
    f->kings_own = white ? wk : bk;
    f->kings_enemy = white ? bk : wk;
    int own_king = (white ? nwk : nbk) > 0, enemy_king = (white ? nbk : nwk) > 0;
    f->king_state[0] = (uint8_t)(own_king + 2 * enemy_king);
    f->king_state[1] = (uint8_t)(enemy_king + 2 * own_king);
    int men = nwm + nbm;
    f->phase = men < EVAL_PHASE_MAX ? men : EVAL_PHASE_MAX;
    f->drawish = is_drawish(b);
}

void eval_features(const Board *b, EvalFeatures *f)
{
    assert(initialised);
    int them_counts[EVAL_PARAMS_MAX] = {0};
    memset(f->base, 0, sizeof f->base);
    Side us = b->side, them = side_flip(us);
    side_terms(&builtin.params, b, us, f->base);
    side_terms(&builtin.params, b, them, them_counts);
    for (int i = 0; i < F_COUNT; i++)
        f->base[i] -= them_counts[i];
    pattern_features(b, f);
}

// The pattern part of the evaluation (before the draw scaling): windows and king squares,
// blended by phase, and the material table.
static int pattern_score(const EvalWeights *w, const EvalFeatures *f)
{
    int opening = 0, ending = 0;
    const int16_t(*own)[EVAL_WINDOW_STATES][2] = w->pattern[f->king_state[0]][0];
    const int16_t(*enemy)[EVAL_WINDOW_STATES][2] = w->pattern[f->king_state[1]][1];
    for (int k = 0; k < EVAL_WINDOWS; k++) {
        opening += own[k][f->own[k]][0] - enemy[k][f->enemy[k]][0];
        ending += own[k][f->own[k]][1] - enemy[k][f->enemy[k]][1];
    }
    for (uint32_t k = f->kings_own; k; k &= k - 1) {
        const int16_t *v = w->king_square[0][__builtin_ctz(k)];
        opening += v[0], ending += v[1];
    }
    for (uint32_t k = f->kings_enemy; k; k &= k - 1) {
        const int16_t *v = w->king_square[1][__builtin_ctz(k)];
        opening -= v[0], ending -= v[1];
    }
    return (opening * f->phase + ending * (EVAL_PHASE_MAX - f->phase)) / EVAL_PHASE_MAX +
           w->material[f->material];
}

static int scaled(const EvalWeights *w, const EvalFeatures *f, int total)
{
    if (!f->drawish)
        return total;
    return total / (w->params.draw_divisor > 0 ? w->params.draw_divisor : 1);
}

Score eval_evaluate(const EvalWeights *w, const Board *b)
{
    assert(initialised);
    Side us = b->side, them = side_flip(us);
    EvalFeatures f; // the pattern part only: the named terms are summed as they are counted
    pattern_features(b, &f);
    int total = side_terms(&w->params, b, us, NULL) - side_terms(&w->params, b, them, NULL) +
                pattern_score(w, &f);
    total = scaled(w, &f, total);
    return (Score)(total > EVAL_LIMIT ? EVAL_LIMIT : total < -EVAL_LIMIT ? -EVAL_LIMIT : total);
}

void eval_explain(const EvalWeights *w, const Board *b, FILE *out)
{
    assert(initialised);
    EvalFeatures f; // the pattern part: the named terms are counted per side below
    pattern_features(b, &f);
    // The named terms of each side, from its own counts.
    int us[TERM_COUNT] = {0}, them[TERM_COUNT] = {0};
    int cu[EVAL_PARAMS_MAX] = {0}, ct[EVAL_PARAMS_MAX] = {0};
    side_terms(&w->params, b, b->side, cu);
    side_terms(&w->params, b, side_flip(b->side), ct);
    for (int i = 0; i < F_COUNT; i++) {
        us[PARAMS[i].term] += eval_param(w, i) * cu[i];
        them[PARAMS[i].term] += eval_param(w, i) * ct[i];
    }
    fprintf(out, "term        side-to-move  opponent  difference\n");
    for (int i = 0; i < TERM_COUNT; i++)
        fprintf(out, "%-11s %12d %9d %11d\n", TERM_NAMES[i], us[i], them[i], us[i] - them[i]);
    int mat = w->material[f.material], pat = pattern_score(w, &f) - mat;
    fprintf(out,
            "%-11s %12s %9s %11d (9 windows and king squares, 2 views, king states %d/%d; %d "
            "men: %d/%d opening)\n",
            "patterns", "", "", pat, f.king_state[0], f.king_state[1], f.phase, f.phase,
            EVAL_PHASE_MAX);
    fprintf(out, "%-11s %12s %9s %11d (the table's weight of this balance of men and kings)\n",
            "balance", "", "", mat);
    fprintf(out, "drawn ending: %s\n", f.drawish ? "yes (scaled toward 0)" : "no");
    fprintf(out, "total: %d (side to move)\n", eval_evaluate(w, b)); // the search's number
}

// ---- The weights file ------------------------------------------------------------------------

enum {
    FILE_VERSION = 6,         // 6: without the two weights of pieces en prise (always 0, removed)
    FILE_NAMED = F_COUNT + 1, // the tunable weights and draw_divisor
    FILE_HEADER = 8 + 4 * 4,
    FILE_BYTES = FILE_HEADER + 4 * FILE_NAMED + 2 * EVAL_TABLE_WEIGHTS + 8,
    PARAM_LIMIT = 100000,
};
static const char FILE_MAGIC[8] = {'D', 'A', 'M', 'K', 'A', 'E', 'V', 'W'};

// The tables of w as one list of int16, in the file's order (eval_table_index).
static int16_t *table_weights(EvalWeights *w) { return &w->pattern[0][0][0][0][0]; }

_Static_assert(offsetof(EvalWeights, king_square) ==
                   offsetof(EvalWeights, pattern) + 2 * EVAL_PATTERN_WEIGHTS,
               "the king-square tables follow the pattern tables");
_Static_assert(offsetof(EvalWeights, material) ==
                   offsetof(EvalWeights, king_square) + 2 * EVAL_KING_SQUARE_WEIGHTS,
               "the material table follows the king-square tables");

static int named_value(const EvalWeights *w, int i)
{
    return i < F_COUNT ? eval_param(w, i) : w->params.draw_divisor;
}

bool eval_save_file(const char *path, const EvalWeights *w, char *err, size_t errlen)
{
    uint8_t *buf = malloc(FILE_BYTES), *p = buf;
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(p, FILE_MAGIC, 8), p += 8;
    static const uint32_t head[4] = {FILE_VERSION, FILE_NAMED, EVAL_WINDOWS, EVAL_WINDOW_STATES};
    for (int i = 0; i < 4; i++, p += 4)
        util_put_le(p, head[i], 4);
    for (int i = 0; i < FILE_NAMED; i++, p += 4)
        util_put_le(p, (uint32_t)named_value(w, i), 4);
    const int16_t *t = table_weights((EvalWeights *)w);
    for (size_t i = 0; i < EVAL_TABLE_WEIGHTS; i++, p += 2)
        util_put_le(p, (uint16_t)t[i], 2);
    util_put_le(p, util_fnv1a(buf, (size_t)(p - buf), UTIL_FNV_BASIS), 8);
    bool ok = util_write_file(path, buf, FILE_BYTES, err, errlen);
    free(buf);
    return ok;
}

bool eval_load_bytes(const uint8_t *buf, size_t n, EvalWeights *out, char *err, size_t errlen)
{
    const char *why = NULL;
    if (n >= 8 && memcmp(buf, FILE_MAGIC, 8) != 0)
        why = "not a Damka weights file";
    else if (n >= 12 && util_get_le(buf + 8, 4) != FILE_VERSION)
        why = "another version";
    else if (n != FILE_BYTES)
        why = "wrong size (truncated, or another layout)";
    else if (util_get_le(buf + 12, 4) != FILE_NAMED || util_get_le(buf + 16, 4) != EVAL_WINDOWS ||
             util_get_le(buf + 20, 4) != EVAL_WINDOW_STATES)
        why = "another layout of weights";
    else if (util_get_le(buf + n - 8, 8) != util_fnv1a(buf, n - 8, UTIL_FNV_BASIS))
        why = "checksum mismatch (corrupt)";
    EvalWeights *w = why ? NULL : malloc(sizeof *w);
    if (!why && !w)
        why = "out of memory";
    if (!why) {
        memset(w, 0, sizeof *w);
        const uint8_t *p = buf + FILE_HEADER;
        for (int i = 0; i < FILE_NAMED && !why; i++, p += 4) {
            int v = (int)(int32_t)(uint32_t)util_get_le(p, 4);
            if (v < -PARAM_LIMIT || v > PARAM_LIMIT)
                why = "a named weight out of range";
            else if (i < F_COUNT) // the named weights, then draw_divisor
                *eval_param_ref(w, i) = v;
            else if (v < 1)
                why = "draw_divisor must be at least 1";
            else
                w->params.draw_divisor = v;
        }
        int16_t *t = table_weights(w);
        for (size_t i = 0; i < EVAL_TABLE_WEIGHTS; i++, p += 2)
            t[i] = (int16_t)(uint16_t)util_get_le(p, 2);
    }
    if (why)
        snprintf(err, errlen, "%s", why);
    else
        memcpy(out, w, sizeof *w);
    free(w);
    return why == NULL;
}

bool eval_load_file(const char *path, EvalWeights *out, char *err, size_t errlen)
{
    size_t n;
    uint8_t *buf = util_read_file(path, FILE_BYTES, &n, err, errlen);
    char why[EVAL_ERR_MAX];
    bool ok = buf && eval_load_bytes(buf, n, out, why, sizeof why);
    if (buf && !ok)
        snprintf(err, errlen, "%s: %s", path, why);
    free(buf);
    return ok;
}

// The built-in weights' bytes (src/eval_builtin.c: the file weights/eval-<hash>.bin as built).
extern const unsigned char g_eval_builtin_bytes[], g_eval_builtin_end[];

static void init(void)
{
    tables_init();
    build_masks();
    char err[EVAL_ERR_MAX];
    size_t n = (size_t)(g_eval_builtin_end - g_eval_builtin_bytes);
    if (!eval_load_bytes(g_eval_builtin_bytes, n, &builtin, err, sizeof err)) {
        // A damaged build, not bad input: nothing sensible can be played without weights.
        fprintf(stderr, "damka: the built-in evaluation weights do not load: %s\n", err);
        abort();
    }
    initialised = true;
}

void eval_init(void) { pthread_once(&init_once, init); }

const EvalWeights *eval_builtin(void)
{
    eval_init();
    return &builtin;
}
