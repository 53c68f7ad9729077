// SPDX-License-Identifier: MIT
// The evaluation network (issue 43): an efficiently updated network over the pieces.
//
// Inputs: for each point of view (White's and Black's, each reading the board from its own
// side: Black's turns it around), one input per piece kind relative to that side (own man,
// own king, enemy man, enemy king) and square, NET_INPUTS in all (squares in the padded bit
// layout, 36 a kind, the four ghost bits never set). First layer: NET_HIDDEN int16 sums per
// point of view, kept incrementally as moves are played (a quiet move changes 2 inputs of each
// view, a capture 2 more per taken piece, a promotion the kind) in a NetAccumulator. Then the
// side to move's sums and its opponent's, clipped to 0..NET_QA, feed a dense layer of NET_L2
// int8 weights, clipped again, and one output: centi-men for the side to move. The dense part
// has NET_BUCKETS sets of weights chosen by the number of pieces on the board. Integer
// arithmetic throughout: every processor gives the same score. Colour-symmetric by
// construction: a position and its mirror (turned around, colours swapped) score the same.
#ifndef NET_H_INCLUDED
#define NET_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "types.h"

enum {
    NET_SQUARES = 36, // the padded layout's bits, ghosts included (never set)
    NET_KINDS = 4,    // own man, own king, enemy man, enemy king
    NET_INPUTS = NET_KINDS * NET_SQUARES,
    NET_HIDDEN = 128, // first-layer sums per point of view
    NET_L2 = 32,      // the dense layer
    NET_BUCKETS = 4,  // dense weights by pieces on the board: 1-6, 7-12, 13-18, 19-24
    NET_QA = 127,     // a first-layer sum (and a dense output) of 1.0, clipped at 0..NET_QA
    NET_QB = 64,      // a dense or output weight of 1.0
    NET_ERR_MAX = 256,
    NET_DRAW_DIVISOR = 16, // drawn endings toward 0, as the pattern weights' draw_divisor
};

typedef struct NetWeights {
    int16_t w1[NET_INPUTS][NET_HIDDEN]; // scaled by NET_QA
    int16_t b1[NET_HIDDEN];
    int8_t w2[NET_BUCKETS][NET_L2][2 * NET_HIDDEN]; // scaled by NET_QB; inputs: the side to
    int32_t b2[NET_BUCKETS][NET_L2];                // move's sums, then the opponent's
    int16_t w3[NET_BUCKETS][NET_L2];                // scaled by NET_QB
    int32_t b3[NET_BUCKETS];
    int32_t output_scale; // centi-men of an output of 1.0
} NetWeights;

// The first layer's sums of a position, [SIDE_WHITE] and [SIDE_BLACK] points of view.
typedef struct NetAccumulator {
    _Alignas(64) int16_t sum[2][NET_HIDDEN];
} NetAccumulator;

// The index of the input of a piece (colour, king or man) on padded bit `bit`, as side `view`
// sees it.
static inline int net_input(Side view, Side colour, bool king, int bit)
{
    int kind = (colour == view ? 0 : 2) + (king ? 1 : 0);
    return kind * NET_SQUARES + (view == SIDE_WHITE ? bit : NET_SQUARES - 1 - bit);
}

// The dense weights' bucket of a position of `pieces` pieces.
int net_bucket(int pieces);

// The sums of b computed from scratch.
void net_refresh(const NetWeights *w, const Board *b, NetAccumulator *acc);

// The sums after move m (legal in before) from the sums of before: in and out may be the same.
void net_update(const NetWeights *w, const Board *before, const Move *m, const NetAccumulator *in,
                NetAccumulator *out);

// The network's score of b for the side to move, in centi-men, from its sums.
int net_evaluate(const NetWeights *w, const Board *b, const NetAccumulator *acc);

// The evaluation's score of b with the network: net_evaluate, a known drawn ending divided by
// NET_DRAW_DIVISOR (as the pattern evaluation scales it), clamped to +-EVAL_LIMIT.
int net_score(const NetWeights *w, const Board *b, const NetAccumulator *acc);

// The same from the side to move's sums (own), its opponent's (enemy) and the number of pieces
// on the board (the trainer's check of its integers): with the SIMD path of the build
// (net_simd() names it: "avx2" or "portable"), and with the portable C path, which gives the
// same number.
int net_output(const NetWeights *w, int pieces, const int16_t *own, const int16_t *enemy);
int net_output_portable(const NetWeights *w, int pieces, const int16_t *own, const int16_t *enemy);
const char *net_simd(void);

// The file: "DAMKANET", version, the layer sizes, the arrays little-endian in the order of the
// struct, an FNV-1a checksum. A file of another version or layout, truncated or corrupt is
// refused with the reason in err and *out unchanged.
bool net_load_bytes(const uint8_t *buf, size_t n, NetWeights *out, char *err, size_t errlen);
bool net_load_file(const char *path, NetWeights *out, char *err, size_t errlen);
bool net_save_file(const char *path, const NetWeights *w, char *err, size_t errlen);

// Bytes of a network file.
size_t net_file_bytes(void);

#endif
