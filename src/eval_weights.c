// SPDX-License-Identifier: MIT
// The evaluation's built-in weights: the hand-set named weights, with empty pattern tables
// until damka-train writes this file from self-play data (make tune).
#include "eval.h"

const EvalWeights EVAL_BUILTIN = {
    .params =
        {
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
        },
};
