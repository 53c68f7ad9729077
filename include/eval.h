// SPDX-License-Identifier: MIT
// Static evaluation in hundredths of a man, from the side to move's point of view.
#ifndef EVAL_H_INCLUDED
#define EVAL_H_INCLUDED

#include <stdio.h>

#include "types.h"

// Every weight of the evaluation, named in one place for the tuner.
typedef struct EvalParams {
    int man;              // material
    int king;
    int adv[8];           // a man's bonus by rank counted from its own side (index 0 = own back rank)
    int center;           // man on c3 e3 d4 f4 c5 e5 d6 f6
    int edge;             // man on the a or h file
    int back_guard;       // man on its own back rank while the opponent still has men
    int mobility;         // per quiet move more than the opponent
    int runaway[8];       // a man with no enemy piece in its path to the last rank, by rank
    int king_diagonal;    // a king holding the long diagonal a1-h8 that the opponent does not
    int king_mobility;    // per square a king can reach
    int draw_divisor;     // known drawn endings are divided by this
} EvalParams;

// The weights the engine plays with (read-only after start-up unless a tuner sets them).
extern EvalParams g_eval_params;

// Evaluation of b for the side to move.
Score eval_evaluate(const Board *b);

// Writes the evaluation and its terms, one per line, for the `eval` command.
void eval_explain(const Board *b, FILE *out);

// Names of the tunable weights and access to them by name (for the tuner); false if unknown.
int eval_param_count(void);
const char *eval_param_name(int i);
int *eval_param_ref(int i);

#endif
