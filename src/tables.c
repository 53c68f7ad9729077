// SPDX-License-Identifier: MIT
// Owns the read-only lookup tables: square geometry and Zobrist keys.
#include "tables.h"

#include <pthread.h>

Bitboard g_square_bb[SQUARE_COUNT];
int8_t g_bit_square[64];
Key g_zobrist[2][2][BIT_COUNT];
Key g_zobrist_side;

static pthread_once_t once = PTHREAD_ONCE_INIT;

int tables_rank(Square s) { return 7 - s / 4; }

int tables_file(Square s)
{
    // Rows with an odd rank index (8, 6, 4, 2) start on file b; the others on file a.
    return 2 * (s % 4) + (tables_rank(s) % 2 == 1 ? 1 : 0);
}

Square tables_square_at(int x, int y)
{
    if (x < 0 || x > 7 || y < 0 || y > 7 || (x + y) % 2 != 0)
        return -1;
    return (7 - y) * 4 + x / 2;
}

// SplitMix64: a fixed seed keeps keys (and so bench node counts) identical across runs.
static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void build(void)
{
    for (int b = 0; b < 64; b++)
        g_bit_square[b] = -1;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        int bit = (tables_file(s) + 9 * tables_rank(s)) / 2;
        g_square_bb[s] = 1ULL << bit;
        g_bit_square[bit] = (int8_t)s;
    }
    uint64_t seed = 0x44616D6B61ULL; // "Damka"
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < 2; k++)
            for (int b = 0; b < BIT_COUNT; b++)
                g_zobrist[side][k][b] = splitmix(&seed);
    g_zobrist_side = splitmix(&seed);
}

void tables_init(void) { pthread_once(&once, build); }
