// SPDX-License-Identifier: MIT
// The 16-byte training record (format in record.h).
#include "record.h"

static void put32(uint8_t *p, uint32_t v)
{
    for (int j = 0; j < 4; j++)
        p[j] = (uint8_t)(v >> (8 * j));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void record_encode(const Board *b, int result, int score, uint8_t *r)
{
    uint32_t w, bl, k;
    board_squares(b, &w, &bl, &k);
    put32(r, w), put32(r + 4, bl), put32(r + 8, k);
    r[12] = (uint8_t)b->side;
    r[13] = (uint8_t)(int8_t)result;
    if (score > RECORD_SCORE_CLAMP)
        score = RECORD_SCORE_CLAMP;
    if (score < -RECORD_SCORE_CLAMP)
        score = -RECORD_SCORE_CLAMP;
    uint16_t sc = (uint16_t)(int16_t)score;
    r[14] = (uint8_t)(sc & 0xFF);
    r[15] = (uint8_t)(sc >> 8);
}

bool record_decode(const uint8_t *r, Board *b, int *result, int *score)
{
    int res = (int8_t)r[13];
    int sc = (int16_t)(uint16_t)(r[14] | r[15] << 8);
    if (r[12] > 1 || res < -1 || res > 1 || sc < -RECORD_SCORE_CLAMP || sc > RECORD_SCORE_CLAMP)
        return false;
    if (!board_set_squares(b, get32(r), get32(r + 4), get32(r + 8), (Side)r[12]))
        return false;
    *result = res;
    *score = sc;
    return true;
}
