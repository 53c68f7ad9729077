// SPDX-License-Identifier: MIT
// The 16-byte training record (format in record.h).
#include "record.h"

#include "util.h"

void record_encode(const Board *b, int result, int score, uint8_t *r)
{
    uint32_t w, bl, k;
    board_squares(b, &w, &bl, &k);
    util_put_le(r, w, 4), util_put_le(r + 4, bl, 4), util_put_le(r + 8, k, 4);
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
    if (!board_set_squares(b, (uint32_t)util_get_le(r, 4), (uint32_t)util_get_le(r + 4, 4),
                           (uint32_t)util_get_le(r + 8, 4), (Side)r[12]))
        return false;
    *result = res;
    *score = sc;
    return true;
}
