// SPDX-License-Identifier: MIT
// Shared lock-free transposition table: buckets of four two-word entries, age-and-depth
// replacement. It knows keys and packed data, not boards.
#ifndef TT_H_INCLUDED
#define TT_H_INCLUDED

#include <stdatomic.h>
#include <stddef.h>

#include "types.h"

typedef enum Bound { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

// One entry: the key is stored xor-ed with the data, so a torn write fails the key check.
typedef struct TTEntry {
    _Atomic uint64_t check; // key ^ data
    _Atomic uint64_t data;
} TTEntry;

typedef struct TT {
    void *raw;        // the mapping; entries is its first 2 MB aligned address
    size_t raw_bytes; // its length, for munmap
    TTEntry *entries;
    size_t bucket_count; // a power of two
    size_t megabytes;
    uint8_t generation; // 6 bits, bumped by tt_new_search()
} TT;

// What a probe returns.
typedef struct TTData {
    uint16_t move; // packed move code (0 = none), see move_code()
    Score score;
    Score eval;
    Depth depth;
    Bound bound;
} TTData;

enum { TT_MB_MIN = 1, TT_MB_MAX = 65536, TT_BUCKET = 4 };

void tt_init(TT *tt);

// Sets the size in MB (TT_MB_MIN..TT_MB_MAX, and at most 3/4 of the physical memory) and
// clears it. On failure (bad size or no memory) keeps the old table and returns false.
bool tt_resize(TT *tt, size_t megabytes);

void tt_free(TT *tt);

// Empties the table, splitting the work over `threads` threads.
void tt_clear(TT *tt, int threads);

// Starts a new search: entries of older searches become the first to be replaced.
void tt_new_search(TT *tt);

bool tt_probe(const TT *tt, Key key, TTData *out);

void tt_store(TT *tt, Key key, uint16_t move, Score score, Score eval, Depth depth, Bound bound);

// Permille of sampled entries written in the current search.
int tt_hashfull(const TT *tt);

// Prefetches the bucket of key (a hint for the CPU).
void tt_prefetch(const TT *tt, Key key);

#endif
