// SPDX-License-Identifier: MIT
// Static evaluation in hundredths of a man, from the side to move's point of view.
//
// The evaluation is linear in its weights, so that a trainer fits them by logistic regression:
// - a few named terms (material, advancement, structure, mobility, runaway men, kings), each a
//   weight times a count for the side to move minus the same count for the opponent;
// - pattern tables: the men on each of nine 4x4 windows of the board (corners at files and
//   ranks 0, 2, 4; eight dark squares each: empty, own man or enemy man, 3^8 states) index a
//   table of weights, an opening and an ending one blended by the number of men on the board.
//   Each side's windows are read from its own side of the board (the board turned around for
//   Black), so the evaluation is colour-symmetric by construction. The side to move's windows
//   and the opponent's look up tables of their own (view 0 and view 1): the same men are
//   worth more or less with the move or without it, which is how the patterns learn tempo.
//   And each side's windows read one of four sets of tables by its king state: whether that
//   side has a king, and whether its opponent has one (men facing a king are another matter).
// - king squares: a weight for each square a king stands on, opening and ending, in the same
//   two views (the side to move's kings, the opponent's), each side's squares read from its own
//   side of the board. The windows see kings as empty squares; this is what the model knows of
//   where kings stand, and how much a king is worth as the board empties.
// - a material table: one weight for each balance of men and kings (the side to move's men and
//   kings, the opponent's men and kings, 0 to 12 each), not blended by phase (the balance is
//   its own phase): what a king is worth against men, or a third king against a lone king, is
//   not one number times a count.
// Known drawn endings (a lone king against one or two kings, or three when it holds the long
// diagonal) are scaled toward 0 by draw_divisor, outside the linear part.
//
// Weights live in an EvalWeights: the built-in set is the file weights/eval-<hash>.bin built into
// the binary (src/eval_builtin.c) and read by the same loader as any other; eval_load_file
// reads another set, which each engine keeps for itself.
#ifndef EVAL_H_INCLUDED
#define EVAL_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "types.h"

enum {
    EVAL_WINDOWS = 9,
    EVAL_VIEWS = 2,            // the side to move's tables, then the opponent's
    EVAL_KING_STATES = 4,      // 0 no king, 1 own king(s) only, 2 enemy's only, 3 both
    EVAL_WINDOW_STATES = 6561, // 3^8
    EVAL_PHASE_MAX = 24,       // men on the board at which only the opening table counts
    EVAL_MATERIAL_COUNT = 13,  // 0 to 12 men (or kings) of one side
    EVAL_MATERIAL_STATES =
        EVAL_MATERIAL_COUNT * EVAL_MATERIAL_COUNT * EVAL_MATERIAL_COUNT * EVAL_MATERIAL_COUNT,
    EVAL_PARAMS_MAX = 32,
    EVAL_ERR_MAX = 256,
    EVAL_LIMIT = 20000, // evaluations are clamped to +-EVAL_LIMIT, below every win score
};

// The named weights.
typedef struct EvalParams {
    int man; // material
    int king;
    int adv[8];        // a man's bonus by rank counted from its own side (index 0 = own back rank)
    int center;        // man on c3 e3 d4 f4 c5 e5 d6 f6
    int edge;          // man on the a or h file
    int back_guard;    // man on its own back rank while the opponent still has men
    int mobility;      // per quiet move more than the opponent
    int runaway[8];    // a man with no enemy piece in its path to the last rank, by rank
    int king_diagonal; // a king holding the long diagonal a1-h8 that the opponent does not
    int king_mobility; // per square a king can reach
    int draw_divisor;  // known drawn endings are divided by this
} EvalParams;

typedef struct EvalWeights {
    EvalParams params;
    // [king state][view: 0 side to move, 1 opponent][window][state][0 opening, 1 ending]
    int16_t pattern[EVAL_KING_STATES][EVAL_VIEWS][EVAL_WINDOWS][EVAL_WINDOW_STATES][2];
    int16_t king_square[EVAL_VIEWS][SQUARE_COUNT][2]; // [view][square][opening, ending]
    // [side to move's men][its kings][opponent's men][its kings], flattened: eval_material_index
    int16_t material[EVAL_MATERIAL_STATES];
} EvalWeights;

// The tables of EvalWeights as one list of int16 weights, in the order of the struct, of the
// weights file and of the trainer's parameters: the pattern tables, the king-square tables,
// then the material table.
enum {
    EVAL_PATTERN_WEIGHTS = EVAL_KING_STATES * EVAL_VIEWS * EVAL_WINDOWS * EVAL_WINDOW_STATES * 2,
    EVAL_KING_SQUARE_WEIGHTS = EVAL_VIEWS * SQUARE_COUNT * 2,
    EVAL_TABLE_WEIGHTS = EVAL_PATTERN_WEIGHTS + EVAL_KING_SQUARE_WEIGHTS + EVAL_MATERIAL_STATES,
};

// Index in that list of a pattern weight ([king state][view][window][state][phase]).
static inline size_t eval_pattern_index(int ks, int view, int window, int state, int phase)
{
    return (((((size_t)ks * EVAL_VIEWS + (size_t)view) * EVAL_WINDOWS + (size_t)window) *
                 EVAL_WINDOW_STATES +
             (size_t)state) *
                2 +
            (size_t)phase);
}

// Index in that list of a king-square weight ([view][square][phase]).
static inline size_t eval_king_square_index(int view, int square, int phase)
{
    return EVAL_PATTERN_WEIGHTS + ((size_t)view * SQUARE_COUNT + (size_t)square) * 2 +
           (size_t)phase;
}

// Builds the evaluation's tables and reads the built-in weights; idempotent and thread-safe
// (engine_library_init calls it). Every other function here needs it first.
void eval_init(void);

// The built-in weights (calls eval_init).
const EvalWeights *eval_builtin(void);

// Evaluation of b for the side to move.
Score eval_evaluate(const EvalWeights *w, const Board *b);

// Writes the evaluation and its terms, one per line, for the `eval` command.
void eval_explain(const EvalWeights *w, const Board *b, FILE *out);

// The tunable named weights (draw_divisor is not one: it is outside the linear part).
int eval_param_count(void);
const char *eval_param_name(int i);
int eval_param(const EvalWeights *w, int i);
int *eval_param_ref(EvalWeights *w, int i);

// What the evaluation of b is made of, for the trainer: eval = sum over tunable weights i of
// weight_i * base[i], plus for each window the pattern weights of state own[k] in view 0 of
// king state king_state[0] minus those of state enemy[k] in view 1 of king_state[1], plus the
// king-square weights of the squares of kings_own in view 0 minus those of kings_enemy in
// view 1, blended as
// (opening * phase + ending * (EVAL_PHASE_MAX - phase)) / EVAL_PHASE_MAX, plus the material
// weight of index material; then divided by draw_divisor when drawish.
typedef struct EvalFeatures {
    int base[EVAL_PARAMS_MAX];
    uint16_t own[EVAL_WINDOWS];     // the side to move's window states
    uint16_t enemy[EVAL_WINDOWS];   // the opponent's, read from its own side of the board
    uint32_t kings_own;             // squares of the side to move's kings (bit = square)
    uint32_t kings_enemy;           // the opponent's, read from its own side of the board
    uint8_t king_state[EVAL_VIEWS]; // of the side to move's windows, of the opponent's
    int phase;                      // men on the board, at most EVAL_PHASE_MAX
    int material;                   // index of the balance in EvalWeights.material
    bool drawish;
} EvalFeatures;

void eval_features(const Board *b, EvalFeatures *f);

// The index in EvalWeights.material of a balance (counts above 12 count as 12).
int eval_material_index(int own_men, int own_kings, int enemy_men, int enemy_kings);

// The weights file: 8 bytes "DAMKAEVW", u32 version (6), u32 number of named weights, u32
// windows, u32 states, the named weights as i32 (in eval_param_name order, then
// draw_divisor), the tables as i16 (EVAL_TABLE_WEIGHTS, in eval_pattern_index order), and u64
// FNV-1a of all the bytes before it; little-endian (docs/formats.md). Reading checks every
// field, the size and the checksum; on failure it returns false with one line in err and
// leaves *out unchanged. Files of the layouts of earlier rounds (versions 1-5) were converted
// once and are refused.
bool eval_load_file(const char *path, EvalWeights *out, char *err, size_t errlen);

// A known drawn ending (a lone king against one or two kings, or three when it holds the long
// diagonal; no men): the evaluation divides such a position's score toward 0.
bool eval_drawish(const Board *b);
bool eval_save_file(const char *path, const EvalWeights *w, char *err, size_t errlen);

// As eval_load_file, from the n bytes of a file at buf (err without the file's name).
bool eval_load_bytes(const uint8_t *buf, size_t n, EvalWeights *out, char *err, size_t errlen);

#endif
