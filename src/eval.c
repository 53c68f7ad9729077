// SPDX-License-Identifier: MIT
// Owns the static evaluation: its named terms (material, men's advancement and structure,
// mobility, runaway men, kings on the long diagonal, pieces en prise), the pattern tables of the board's 4x4
// windows, the king squares, the material table, known drawn endings, and the weights file.
#include "eval.h"

#include <errno.h>
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

// The named weights, in the order of the trainer and the weights file, each with the term of
// `eval` it belongs to.
enum { T_MATERIAL, T_ADVANCE, T_STRUCTURE, T_MOBILITY, T_RUNAWAY, T_KINGS, T_THREATS, TERM_COUNT };
static const char *const TERM_NAMES[TERM_COUNT] = {"material", "advance", "structure", "mobility",
                                                   "runaway",  "kings",   "threats"};
enum {
    F_MAN, F_KING, F_ADV1, F_ADV6 = F_ADV1 + 5, F_CENTER, F_EDGE, F_BACK, F_MOBILITY, F_RUN3,
    F_RUN6 = F_RUN3 + 3, F_KING_DIAGONAL, F_KING_MOBILITY, F_HANGING_MAN, F_HANGING_KING, F_COUNT
};

typedef struct NamedParam {
    const char *name;
    size_t offset;
    int term;
} NamedParam;

#define P(field, term) {#field, offsetof(EvalParams, field), term}
#define PA(field, i, term) {#field "[" #i "]", offsetof(EvalParams, field) + (i) * sizeof(int), term}
static const NamedParam PARAMS[F_COUNT] = {
    P(man, T_MATERIAL),         P(king, T_MATERIAL),          PA(adv, 1, T_ADVANCE),
    PA(adv, 2, T_ADVANCE),      PA(adv, 3, T_ADVANCE),        PA(adv, 4, T_ADVANCE),
    PA(adv, 5, T_ADVANCE),      PA(adv, 6, T_ADVANCE),        P(center, T_STRUCTURE),
    P(edge, T_STRUCTURE),       P(back_guard, T_STRUCTURE),   P(mobility, T_MOBILITY),
    PA(runaway, 3, T_RUNAWAY),  PA(runaway, 4, T_RUNAWAY),    PA(runaway, 5, T_RUNAWAY),
    PA(runaway, 6, T_RUNAWAY),  P(king_diagonal, T_KINGS),    P(king_mobility, T_KINGS),
    P(hanging_man, T_THREATS),  P(hanging_king, T_THREATS),
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
static Bitboard cone[2][BIT_COUNT];    // by bit, so the loop over men needs no square lookup
static Bitboard rank_mask[2][8];        // [side][rank counted from that side]
static Bitboard center_mask, edge_mask, back_rank[2], diagonal_mask;
// The eight dark squares of window k as padded bits. In the padded layout a bit's index grows
// with the rank and, within a rank, with the file: the order of a window's base-3 digits
// (digit 2 * rank-in-window + k for the k-th dark square of that rank from the left). So the
// men of a window, gathered in bit order, are the binary digits of its index, and base3 maps
// those eight bits to the base-3 number with the same digits.
static Bitboard window_mask[EVAL_WINDOWS];
static uint8_t window_bit[EVAL_WINDOWS][8]; // the same bits in order, for machines without pext
static uint16_t base3[256];
static pthread_once_t masks_once = PTHREAD_ONCE_INIT;

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
    tables_init();
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
    for (int k = 0; k < EVAL_WINDOWS; k++)
        out[k] = (uint16_t)(base3[window_bits(own, k)] + 2 * base3[window_bits(enemy, k)]);
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

// The pieces of side s that the opponent's men or kings could take on a first jump. Quiescence
// scores some positions where the side to move has to answer such a threat.
static Bitboard en_prise(const Board *b, Side s)
{
    Bitboard enemy = b->pieces[side_flip(s)], empty = BB_VALID & ~(b->pieces[0] | b->pieces[1]);
    Bitboard enemy_kings = enemy & b->kings, hit = 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        Bitboard from = enemy;
        if (enemy_kings)
            from |= bb_ray_fill(enemy_kings, d, empty);
        hit |= bb_shift(from, d) & b->pieces[s] & bb_shift(empty, dir_reverse(d));
    }
    return hit;
}

// The named terms of side s: returns their weighted sum, and when counts is not NULL adds each
// count to it (for the trainer and `eval`). Inlined with counts NULL, the evaluation's own call
// keeps no counts at all.
#define TERM(f, weight, n)                                                                         \
    do {                                                                                           \
        int n_ = (n);                                                                              \
        score += (weight) * n_;                                                                    \
        if (counts)                                                                                \
            counts[f] += n_;                                                                       \
    } while (0)
static inline __attribute__((always_inline)) int side_terms(const EvalParams *p, const Board *b,
                                                            Side s, int *counts)
{
    Side o = side_flip(s);
    Bitboard men = b->pieces[s] & ~b->kings, kings = b->pieces[s] & b->kings;
    Bitboard enemy = b->pieces[o], enemy_men = enemy & ~b->kings;
    int score = 0;
    TERM(F_MAN, p->man, bb_count(men));
    TERM(F_KING, p->king, bb_count(kings));
    for (int r = 1; r < 7; r++)
        TERM(F_ADV1 + r - 1, p->adv[r], bb_count(men & rank_mask[s][r]));
    // A man whose whole path is free of enemy pieces promotes unless a king comes.
    if (!(enemy & b->kings))
        for (int r = 3; r < 7; r++)
            for (Bitboard m = men & rank_mask[s][r]; m; m = bb_pop(m))
                if (!(cone[s][bb_lsb(m)] & enemy))
                    TERM(F_RUN3 + r - 3, p->runaway[r], 1);
    TERM(F_CENTER, p->center, bb_count(men & center_mask));
    TERM(F_EDGE, p->edge, bb_count(men & edge_mask));
    if (enemy_men)
        TERM(F_BACK, p->back_guard, bb_count(men & back_rank[s]));
    int king_moves;
    TERM(F_MOBILITY, p->mobility, quiet_moves(b, s, &king_moves));
    TERM(F_KING_MOBILITY, p->king_mobility, king_moves);
    if ((kings & diagonal_mask) && !(enemy & b->kings & diagonal_mask))
        TERM(F_KING_DIAGONAL, p->king_diagonal, 1);
    // Pieces en prise. Not counted when both weights are 0 (the built-in weights) and nobody
    // asks for the counts.
    if (counts || p->hanging_man || p->hanging_king) {
        Bitboard hit = en_prise(b, s);
        TERM(F_HANGING_MAN, p->hanging_man, bb_count(hit & men));
        TERM(F_HANGING_KING, p->hanging_king, bb_count(hit & kings));
    }
    return score;
}
#undef TERM

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

// The squares of the kings of bitboard k, one bit a square.
static uint32_t king_squares(Bitboard k)
{
    uint32_t out = 0;
    for (; k; k = bb_pop(k))
        out |= 1u << g_bit_square[bb_lsb(k)];
    return out;
}

int eval_material_index(int own_men, int own_kings, int enemy_men, int enemy_kings)
{
    enum { C = EVAL_MATERIAL_COUNT };
#define CLAMP(n) ((n) < C - 1 ? (n) : C - 1)
    return ((CLAMP(own_men) * C + CLAMP(own_kings)) * C + CLAMP(enemy_men)) * C +
           CLAMP(enemy_kings);
#undef CLAMP
}

// The window states and king squares of both sides, the phase, the material balance and the
// drawn-ending flag of b.
static inline __attribute__((always_inline)) void pattern_features(const Board *b,
                                                                   EvalFeatures *f)
{
    Bitboard wm = b->pieces[SIDE_WHITE] & ~b->kings, bm = b->pieces[SIDE_BLACK] & ~b->kings;
    bool white = b->side == SIDE_WHITE;
    int nwm = bb_count(wm), nbm = bb_count(bm);
    int nwk = bb_count(b->pieces[SIDE_WHITE] & b->kings);
    int nbk = bb_count(b->pieces[SIDE_BLACK] & b->kings);
    f->material = white ? eval_material_index(nwm, nwk, nbm, nbk)
                        : eval_material_index(nbm, nbk, nwm, nwk);
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
    pthread_once(&masks_once, build_masks);
    int them_counts[EVAL_PARAMS_MAX] = {0};
    memset(f->base, 0, sizeof f->base);
    Side us = b->side, them = side_flip(us);
    side_terms(&EVAL_BUILTIN.params, b, us, f->base);
    side_terms(&EVAL_BUILTIN.params, b, them, them_counts);
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
    pthread_once(&masks_once, build_masks);
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
    pthread_once(&masks_once, build_masks);
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
    FILE_VERSION = 5,
    FILE_NAMED = F_COUNT + 1, // the tunable weights and draw_divisor
    FILE_NAMED_V4 = F_COUNT - 1, // versions 1-4: neither hanging_man nor hanging_king
    FILE_HEADER = 8 + 4 * 4,
    FILE_TABLE = 2 * EVAL_WINDOWS * EVAL_WINDOW_STATES * 2, // the bytes of one view's tables
    FILE_KINGS = 2 * EVAL_VIEWS * SQUARE_COUNT * 2, // the bytes of the king-square tables
    FILE_MATERIAL = 2 * EVAL_MATERIAL_STATES,        // the bytes of the material table
    FILE_BYTES = FILE_HEADER + 4 * FILE_NAMED + EVAL_KING_STATES * EVAL_VIEWS * FILE_TABLE +
                 FILE_KINGS + FILE_MATERIAL + 8,
    FILE_BYTES_V4 = FILE_BYTES - 4 * (FILE_NAMED - FILE_NAMED_V4),
    // One set of pattern tables (no king states).
    FILE_BYTES_V3 = FILE_BYTES_V4 - (EVAL_KING_STATES - 1) * EVAL_VIEWS * FILE_TABLE,
    // Nor a material table.
    FILE_BYTES_V2 = FILE_BYTES_V3 - FILE_MATERIAL,
    // One pattern table for both views, no king squares, no material table.
    FILE_BYTES_V1 = FILE_HEADER + 4 * FILE_NAMED_V4 + FILE_TABLE + 8,
    PARAM_LIMIT = 100000,
};
static const char FILE_MAGIC[8] = {'D', 'A', 'M', 'K', 'A', 'E', 'V', 'W'};

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ULL;
    return h;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

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
        put_le(p, head[i], 4);
    for (int i = 0; i < FILE_NAMED; i++, p += 4)
        put_le(p, (uint32_t)named_value(w, i), 4);
    for (int ks = 0; ks < EVAL_KING_STATES; ks++)
        for (int v = 0; v < EVAL_VIEWS; v++)
            for (int k = 0; k < EVAL_WINDOWS; k++)
                for (int s = 0; s < EVAL_WINDOW_STATES; s++)
                    for (int ph = 0; ph < 2; ph++, p += 2)
                        put_le(p, (uint16_t)w->pattern[ks][v][k][s][ph], 2);
    for (int v = 0; v < EVAL_VIEWS; v++)
        for (int s = 0; s < SQUARE_COUNT; s++)
            for (int ph = 0; ph < 2; ph++, p += 2)
                put_le(p, (uint16_t)w->king_square[v][s][ph], 2);
    for (int i = 0; i < EVAL_MATERIAL_STATES; i++, p += 2)
        put_le(p, (uint16_t)w->material[i], 2);
    put_le(p, fnv1a(buf, (size_t)(p - buf)), 8);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(buf, 1, FILE_BYTES, f) == FILE_BYTES;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(buf);
    return ok;
}

bool eval_load_file(const char *path, EvalWeights *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    uint8_t *buf = malloc(FILE_BYTES + 1);
    EvalWeights *w = malloc(sizeof *w);
    size_t n = buf ? fread(buf, 1, FILE_BYTES + 1, f) : 0;
    fclose(f);
    // A file too short for its version is told by its size below.
    uint64_t version = buf && n >= 12 ? get_le(buf + 8, 4) : FILE_VERSION;
    size_t want = version == 1   ? FILE_BYTES_V1
                  : version == 2 ? FILE_BYTES_V2
                  : version == 3 ? FILE_BYTES_V3
                  : version == 4 ? FILE_BYTES_V4
                                 : FILE_BYTES;
    int named = version >= 5 ? FILE_NAMED : FILE_NAMED_V4;
    int views = version == 1 ? 1 : EVAL_VIEWS;
    int king_states = version >= 4 ? EVAL_KING_STATES : 1;
    const char *why = NULL;
    if (!buf || !w)
        why = "out of memory";
    else if (n >= 8 && memcmp(buf, FILE_MAGIC, 8) != 0)
        why = "not a Damka weights file";
    else if (version < 1 || version > FILE_VERSION)
        why = "another version";
    else if (n != want)
        why = "wrong size (truncated, or another layout)";
    else if (get_le(buf + 12, 4) != (uint64_t)named || get_le(buf + 16, 4) != EVAL_WINDOWS ||
             get_le(buf + 20, 4) != EVAL_WINDOW_STATES)
        why = "another layout of weights";
    else if (get_le(buf + want - 8, 8) != fnv1a(buf, want - 8))
        why = "checksum mismatch (corrupt)";
    if (!why) {
        memset(w, 0, sizeof *w);
        const uint8_t *p = buf + FILE_HEADER;
        for (int i = 0; i < named && !why; i++, p += 4) {
            int v = (int)(int32_t)(uint32_t)get_le(p, 4);
            if (v < -PARAM_LIMIT || v > PARAM_LIMIT)
                why = "a named weight out of range";
            else if (i < named - 1) // the named weights, then draw_divisor
                *eval_param_ref(w, i) = v;
            else if (v < 1)
                why = "draw_divisor must be at least 1";
            else
                w->params.draw_divisor = v;
        }
        for (int ks = 0; ks < king_states; ks++)
            for (int v = 0; v < views; v++)
                for (int k = 0; k < EVAL_WINDOWS; k++)
                    for (int s = 0; s < EVAL_WINDOW_STATES; s++)
                        for (int ph = 0; ph < 2; ph++, p += 2)
                            w->pattern[ks][v][k][s][ph] = (int16_t)(uint16_t)get_le(p, 2);
        if (views == 1) // version 1: one table for both views, no king squares (left at 0)
            memcpy(w->pattern[0][1], w->pattern[0][0], sizeof w->pattern[0][0]);
        for (int ks = king_states; ks < EVAL_KING_STATES; ks++) // versions 1-3: one set
            memcpy(w->pattern[ks], w->pattern[0], sizeof w->pattern[0]);
        if (views != 1)
            for (int v = 0; v < EVAL_VIEWS; v++)
                for (int s = 0; s < SQUARE_COUNT; s++)
                    for (int ph = 0; ph < 2; ph++, p += 2)
                        w->king_square[v][s][ph] = (int16_t)(uint16_t)get_le(p, 2);
        if (version >= 3) // versions 1 and 2: no material table (left at 0)
            for (int i = 0; i < EVAL_MATERIAL_STATES; i++, p += 2)
                w->material[i] = (int16_t)(uint16_t)get_le(p, 2);
    }
    if (why)
        snprintf(err, errlen, "%s: %s", path, why);
    else
        memcpy(out, w, sizeof *w);
    free(buf);
    free(w);
    return why == NULL;
}
