// SPDX-License-Identifier: MIT
// Owns the static evaluation: material, men's advancement and structure, mobility, runaway
// men, kings on the long diagonal, and known drawn endings.
#include "eval.h"

#include <pthread.h>

#include "bitboard.h"
#include "board.h"
#include "tables.h"

// First hand-set values; the king's worth (2.5 men) follows common Russian draughts practice
// for flying kings and is to be tuned by matches.
EvalParams g_eval_params = {
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

typedef struct NamedParam {
    const char *name;
    int *ref;
} NamedParam;

#define P(field) {#field, &g_eval_params.field}
#define PA(field, i) {#field "[" #i "]", &g_eval_params.field[i]}
static const NamedParam PARAMS[] = {
    P(man), P(king), PA(adv, 1), PA(adv, 2), PA(adv, 3), PA(adv, 4), PA(adv, 5), PA(adv, 6),
    P(center), P(edge), P(back_guard), P(mobility), PA(runaway, 3), PA(runaway, 4),
    PA(runaway, 5), PA(runaway, 6), P(king_diagonal), P(king_mobility), P(draw_divisor),
};
#undef P
#undef PA

int eval_param_count(void) { return (int)(sizeof PARAMS / sizeof PARAMS[0]); }
const char *eval_param_name(int i) { return PARAMS[i].name; }
int *eval_param_ref(int i) { return PARAMS[i].ref; }

// Masks built once: the forward cone of each square for each side, central squares, etc.
static Bitboard cone[2][BIT_COUNT];    // by bit, so the loop over men needs no square lookup
static Bitboard rank_mask[2][8];        // [side][rank counted from that side]
static Bitboard center_mask, edge_mask, back_rank[2], diagonal_mask;
static pthread_once_t masks_once = PTHREAD_ONCE_INIT;

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
}

enum { T_MATERIAL, T_ADVANCE, T_STRUCTURE, T_MOBILITY, T_RUNAWAY, T_KINGS, TERM_COUNT };
static const char *const TERM_NAMES[TERM_COUNT] = {"material", "advance",  "structure",
                                                   "mobility", "runaway", "kings"};

typedef struct Terms {
    int v[TERM_COUNT];
} Terms;

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

// Terms for side s (positive is good for s).
static void side_terms(const Board *b, Side s, Terms *t)
{
    const EvalParams *p = &g_eval_params;
    Side o = side_flip(s);
    Bitboard men = b->pieces[s] & ~b->kings, kings = b->pieces[s] & b->kings;
    Bitboard enemy = b->pieces[o], enemy_men = enemy & ~b->kings;
    t->v[T_MATERIAL] += p->man * bb_count(men) + p->king * bb_count(kings);
    for (int r = 1; r < 7; r++)
        t->v[T_ADVANCE] += p->adv[r] * bb_count(men & rank_mask[s][r]);
    // A man whose whole path is free of enemy pieces promotes unless a king comes.
    if (!(enemy & b->kings))
        for (int r = 3; r < 7; r++)
            for (Bitboard m = men & rank_mask[s][r]; m; m = bb_pop(m))
                if (!(cone[s][bb_lsb(m)] & enemy))
                    t->v[T_RUNAWAY] += p->runaway[r];
    t->v[T_STRUCTURE] += p->center * bb_count(men & center_mask) + p->edge * bb_count(men & edge_mask);
    if (enemy_men)
        t->v[T_STRUCTURE] += p->back_guard * bb_count(men & back_rank[s]);
    int king_moves;
    t->v[T_MOBILITY] += p->mobility * quiet_moves(b, s, &king_moves);
    t->v[T_KINGS] += p->king_mobility * king_moves;
    if ((kings & diagonal_mask) && !(enemy & b->kings & diagonal_mask))
        t->v[T_KINGS] += p->king_diagonal;
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

static Score evaluate_terms(const Board *b, Terms *us, Terms *them)
{
    pthread_once(&masks_once, build_masks);
    *us = (Terms){0};
    *them = (Terms){0};
    side_terms(b, b->side, us);
    side_terms(b, side_flip(b->side), them);
    int total = 0;
    for (int i = 0; i < TERM_COUNT; i++)
        total += us->v[i] - them->v[i];
    if (is_drawish(b))
        total /= g_eval_params.draw_divisor > 0 ? g_eval_params.draw_divisor : 1;
    return (Score)total;
}

Score eval_evaluate(const Board *b)
{
    Terms us, them;
    return evaluate_terms(b, &us, &them);
}

void eval_explain(const Board *b, FILE *out)
{
    Terms us, them;
    Score total = evaluate_terms(b, &us, &them);
    fprintf(out, "term        side-to-move  opponent  difference\n");
    for (int i = 0; i < TERM_COUNT; i++)
        fprintf(out, "%-11s %12d %9d %11d\n", TERM_NAMES[i], us.v[i], them.v[i],
                us.v[i] - them.v[i]);
    fprintf(out, "drawn ending: %s\n", is_drawish(b) ? "yes (scaled toward 0)" : "no");
    fprintf(out, "total: %d (side to move)\n", total);
}
