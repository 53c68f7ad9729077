// SPDX-License-Identifier: MIT
// Owns the evaluation network: its sums kept move by move, its integer forward pass and its
// file (net.h says what it computes).
#include "net.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "eval.h"
#include "tables.h"
#include "util.h"

static const char FILE_MAGIC[8] = {'D', 'A', 'M', 'K', 'A', 'N', 'E', 'T'};
enum {
    FILE_VERSION = 1,
    FILE_HEADER = 8 + 5 * 4, // magic, version, inputs, hidden, dense, buckets
    OUTPUT_SCALE_MAX = 100000,
};

static void add_row(int16_t *sum, const int16_t *row)
{
    for (int i = 0; i < NET_HIDDEN; i++)
        sum[i] = (int16_t)(sum[i] + row[i]);
}

static void sub_row(int16_t *sum, const int16_t *row)
{
    for (int i = 0; i < NET_HIDDEN; i++)
        sum[i] = (int16_t)(sum[i] - row[i]);
}

void net_refresh(const NetWeights *w, const Board *b, NetAccumulator *acc)
{
    for (int view = 0; view < 2; view++) {
        int16_t *sum = acc->sum[view];
        memcpy(sum, w->b1, sizeof w->b1);
        for (int colour = 0; colour < 2; colour++)
            for (Bitboard p = b->pieces[colour]; p; p = bb_pop(p)) {
                int bit = bb_lsb(p);
                bool king = (b->kings >> bit) & 1;
                add_row(sum, w->w1[net_input((Side)view, (Side)colour, king, bit)]);
            }
    }
}

void net_update(const NetWeights *w, const Board *before, const Move *m, const NetAccumulator *in,
                NetAccumulator *out)
{
    if (out != in)
        *out = *in;
    Side us = before->side, them = side_flip(us);
    int from = bb_lsb(g_square_bb[m->from]), to = bb_lsb(g_square_bb[m->to]);
    bool was_king = (before->kings >> from) & 1;
    bool is_king = was_king || (m->flags & MOVE_PROMOTES);
    for (int view = 0; view < 2; view++) {
        int16_t *sum = out->sum[view];
        sub_row(sum, w->w1[net_input((Side)view, us, was_king, from)]);
        add_row(sum, w->w1[net_input((Side)view, us, is_king, to)]);
        for (Bitboard c = m->captured; c; c = bb_pop(c)) {
            int bit = bb_lsb(c);
            sub_row(sum, w->w1[net_input((Side)view, them, (before->kings >> bit) & 1, bit)]);
        }
    }
}

static int clip(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

int net_evaluate(const NetWeights *w, const Board *b, const NetAccumulator *acc)
{
    return net_output(w, bb_count(b->pieces[SIDE_WHITE] | b->pieces[SIDE_BLACK]), acc->sum[b->side],
                      acc->sum[side_flip(b->side)]);
}

int net_score(const NetWeights *w, const Board *b, const NetAccumulator *acc)
{
    int s = net_evaluate(w, b, acc);
    if (eval_drawish(b))
        s /= NET_DRAW_DIVISOR;
    return s > EVAL_LIMIT ? EVAL_LIMIT : s < -EVAL_LIMIT ? -EVAL_LIMIT : s;
}

int net_bucket(int pieces)
{
    int bucket = pieces > 0 ? (pieces - 1) / 6 : 0;
    return bucket < NET_BUCKETS ? bucket : NET_BUCKETS - 1;
}

int net_output_portable(const NetWeights *w, int pieces, const int16_t *own, const int16_t *enemy)
{
    int bucket = net_bucket(pieces);
    uint8_t a[2 * NET_HIDDEN];
    for (int i = 0; i < NET_HIDDEN; i++) {
        a[i] = (uint8_t)clip(own[i], NET_QA);
        a[NET_HIDDEN + i] = (uint8_t)clip(enemy[i], NET_QA);
    }
    int64_t out = w->b3[bucket];
    for (int j = 0; j < NET_L2; j++) {
        const int8_t *row = w->w2[bucket][j];
        int32_t s = w->b2[bucket][j];
        for (int i = 0; i < 2 * NET_HIDDEN; i++)
            s += a[i] * row[i];
        // s is scaled by NET_QA * NET_QB: back to NET_QA, clipped.
        out += (int64_t)clip(s / NET_QB, NET_QA) * w->w3[bucket][j];
    }
    return (int)(out * w->output_scale / (NET_QA * NET_QB));
}

#ifdef __AVX2__
// The same sums with AVX2: the clipped inputs packed to bytes, then each dense row's dot product
// by pairs of byte products (maddubs: a product is at most 127 * 128, a pair's sum fits 16 bits
// without saturating) summed into 32 bits. Integer throughout: the portable path's result.
const char *net_simd(void) { return "avx2"; }

int net_output(const NetWeights *w, int pieces, const int16_t *own, const int16_t *enemy)
{
    _Static_assert(NET_HIDDEN % 32 == 0, "the AVX2 path packs 32 sums at a time");
    int bucket = net_bucket(pieces);
    _Alignas(32) uint8_t a[2 * NET_HIDDEN];
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(NET_QA);
    for (int half = 0; half < 2; half++) {
        const int16_t *src = half ? enemy : own;
        for (int i = 0; i < NET_HIDDEN; i += 32) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(src + i));
            __m256i y = _mm256_loadu_si256((const __m256i *)(src + i + 16));
            x = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
            y = _mm256_min_epi16(_mm256_max_epi16(y, zero), top);
            // packus interleaves the 128-bit lanes: put them back in order.
            __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(x, y), 0xD8);
            _mm256_store_si256((__m256i *)(a + half * NET_HIDDEN + i), packed);
        }
    }
    const __m256i ones = _mm256_set1_epi16(1);
    int64_t out = w->b3[bucket];
    for (int j = 0; j < NET_L2; j++) {
        const int8_t *row = w->w2[bucket][j];
        __m256i sum = zero;
        for (int i = 0; i < 2 * NET_HIDDEN; i += 32) {
            __m256i pairs = _mm256_maddubs_epi16(_mm256_load_si256((const __m256i *)(a + i)),
                                                 _mm256_loadu_si256((const __m256i *)(row + i)));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, ones));
        }
        __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0x4E));
        s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0xB1));
        int32_t s = w->b2[bucket][j] + _mm_cvtsi128_si32(s4);
        out += (int64_t)clip(s / NET_QB, NET_QA) * w->w3[bucket][j];
    }
    return (int)(out * w->output_scale / (NET_QA * NET_QB));
}
#else
const char *net_simd(void) { return "portable"; }

int net_output(const NetWeights *w, int pieces, const int16_t *own, const int16_t *enemy)
{
    return net_output_portable(w, pieces, own, enemy);
}
#endif

// ---- The file
// ------------------------------------------------------------------------------------

size_t net_file_bytes(void)
{
    return FILE_HEADER + sizeof(int16_t) * (NET_INPUTS * NET_HIDDEN + NET_HIDDEN) +
           (size_t)NET_BUCKETS * NET_L2 * 2 * NET_HIDDEN + sizeof(int32_t) * NET_BUCKETS * NET_L2 +
           sizeof(int16_t) * NET_BUCKETS * NET_L2 + sizeof(int32_t) * NET_BUCKETS +
           sizeof(int32_t) + 8;
}

// Copies the n values of `bytes` bytes each between the struct and the file's little-endian
// bytes at *p, in the direction of `save`; signed values are kept by sign extension.
static void transfer(uint8_t **p, void *values, size_t n, int bytes, bool save)
{
    for (size_t i = 0; i < n; i++, *p += bytes) {
        if (bytes == 1) {
            int8_t *v = (int8_t *)values + i;
            save ? (void)(**p = (uint8_t)*v) : (void)(*v = (int8_t) * *p);
        } else if (bytes == 2) {
            int16_t *v = (int16_t *)values + i;
            save ? util_put_le(*p, (uint16_t)*v, 2) : (void)(*v = (int16_t)util_get_le(*p, 2));
        } else {
            int32_t *v = (int32_t *)values + i;
            save ? util_put_le(*p, (uint32_t)*v, 4) : (void)(*v = (int32_t)util_get_le(*p, 4));
        }
    }
}

static void transfer_all(uint8_t *p, NetWeights *w, bool save)
{
    transfer(&p, w->w1, (size_t)NET_INPUTS * NET_HIDDEN, 2, save);
    transfer(&p, w->b1, NET_HIDDEN, 2, save);
    transfer(&p, w->w2, (size_t)NET_BUCKETS * NET_L2 * 2 * NET_HIDDEN, 1, save);
    transfer(&p, w->b2, (size_t)NET_BUCKETS * NET_L2, 4, save);
    transfer(&p, w->w3, (size_t)NET_BUCKETS * NET_L2, 2, save);
    transfer(&p, w->b3, NET_BUCKETS, 4, save);
    transfer(&p, &w->output_scale, 1, 4, save);
}

static const uint32_t SIZES[4] = {NET_INPUTS, NET_HIDDEN, NET_L2, NET_BUCKETS};

bool net_save_file(const char *path, const NetWeights *w, char *err, size_t errlen)
{
    size_t bytes = net_file_bytes();
    uint8_t *buf = malloc(bytes);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(buf, FILE_MAGIC, 8);
    util_put_le(buf + 8, FILE_VERSION, 4);
    for (int i = 0; i < 4; i++)
        util_put_le(buf + 12 + 4 * i, SIZES[i], 4);
    transfer_all(buf + FILE_HEADER, (NetWeights *)w, true);
    util_put_le(buf + bytes - 8, util_fnv1a(buf, bytes - 8, UTIL_FNV_BASIS), 8);
    bool ok = util_write_file(path, buf, bytes, err, errlen);
    free(buf);
    return ok;
}

bool net_load_bytes(const uint8_t *buf, size_t n, NetWeights *out, char *err, size_t errlen)
{
    const char *why = NULL;
    bool sizes_ok = n >= FILE_HEADER;
    for (int i = 0; i < 4 && sizes_ok; i++)
        sizes_ok = util_get_le(buf + 12 + 4 * i, 4) == SIZES[i];
    if (n < 8 || memcmp(buf, FILE_MAGIC, 8) != 0)
        why = "not a Damka network file";
    else if (n < 12 || util_get_le(buf + 8, 4) != FILE_VERSION)
        why = "another version of the network file";
    else if (n < FILE_HEADER)
        why = "wrong size (truncated or padded)";
    else if (!sizes_ok)
        why = "a network of another architecture (layer sizes)";
    else if (n != net_file_bytes())
        why = "wrong size (truncated or padded)";
    else if (util_get_le(buf + n - 8, 8) != util_fnv1a(buf, n - 8, UTIL_FNV_BASIS))
        why = "checksum mismatch (corrupt)";
    NetWeights *w = why ? NULL : malloc(sizeof *w);
    if (!why && !w)
        why = "out of memory";
    if (!why) {
        transfer_all((uint8_t *)buf + FILE_HEADER, w, false);
        if (w->output_scale < 1 || w->output_scale > OUTPUT_SCALE_MAX)
            why = "output scale out of range";
    }
    if (why)
        snprintf(err, errlen, "%s", why);
    else
        memcpy(out, w, sizeof *w);
    free(w);
    return why == NULL;
}

bool net_load_file(const char *path, NetWeights *out, char *err, size_t errlen)
{
    size_t n;
    uint8_t *buf = util_read_file(path, net_file_bytes(), &n, err, errlen);
    char why[NET_ERR_MAX];
    bool ok = buf && net_load_bytes(buf, n, out, why, sizeof why);
    if (buf && !ok)
        snprintf(err, errlen, "%s: %s", path, why);
    free(buf);
    return ok;
}
