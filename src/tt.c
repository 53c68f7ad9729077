// SPDX-License-Identifier: MIT
// Owns the transposition table: allocation, lock-free probe and store, replacement, hashfull.
#include "tt.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

enum { HUGE_PAGE = 2 << 20 };

// Data word: move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6.
static uint64_t pack(uint16_t move, Score score, Score eval, Depth depth, Bound bound, uint8_t gen)
{
    // Each field must fit its bits, or the entry would come back as another one.
    assert(score >= INT16_MIN && score <= INT16_MAX);
    assert(eval >= INT16_MIN && eval <= INT16_MAX);
    assert(depth >= -1 && depth < 255);
    assert(bound <= BOUND_EXACT);
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 16 |
           (uint64_t)(uint16_t)(int16_t)eval << 32 | (uint64_t)(uint8_t)(depth + 1) << 48 |
           (uint64_t)bound << 56 | (uint64_t)(gen & 63) << 58;
}

static Depth data_depth(uint64_t d) { return (Depth)((d >> 48) & 0xFF) - 1; }
static uint8_t data_gen(uint64_t d) { return (uint8_t)(d >> 58); }

void tt_init(TT *tt) { memset(tt, 0, sizeof *tt); }

static void unmap_table(TT *tt) { platform_free_large(tt->raw, tt->raw_bytes); }

bool tt_resize(TT *tt, size_t megabytes)
{
    size_t phys = platform_physical_mb(); // a table may not be larger than the machine
    if (megabytes < TT_MB_MIN || megabytes > TT_MB_MAX || (phys && megabytes > phys * 3 / 4))
        return false;
    size_t bytes = megabytes << 20, bucket_bytes = TT_BUCKET * sizeof(TTEntry);
    size_t buckets = 1;
    while (buckets * 2 * bucket_bytes <= bytes)
        buckets *= 2;
    // Zeroed and untouched (no memset of gigabytes), aligned to 2 MB for huge pages.
    void *raw;
    size_t raw_bytes;
    TTEntry *start = platform_alloc_large(buckets * bucket_bytes, HUGE_PAGE, &raw, &raw_bytes);
    if (!start)
        return false;
    unmap_table(tt);
    tt->raw = raw;
    tt->raw_bytes = raw_bytes;
    tt->entries = start;
    tt->bucket_count = buckets;
    tt->megabytes = megabytes;
    tt->generation = 0;
    return true;
}

void tt_free(TT *tt)
{
    unmap_table(tt);
    tt_init(tt);
}

typedef struct ClearJob {
    TTEntry *start;
    size_t count;
} ClearJob;

static void *clear_part(void *arg)
{
    ClearJob *job = arg;
    memset(job->start, 0, job->count * sizeof(TTEntry));
    return NULL;
}

void tt_clear(TT *tt, int threads)
{
    size_t total = tt->bucket_count * TT_BUCKET;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    pthread_t tid[64];
    ClearJob jobs[64];
    size_t per = (total + (size_t)threads - 1) / (size_t)threads;
    int started = 0;
    for (int i = 0; i < threads; i++) {
        size_t from = (size_t)i * per;
        jobs[i].start = tt->entries + (from < total ? from : total);
        jobs[i].count = from >= total ? 0 : (total - from < per ? total - from : per);
        // The first part is cleared here; a thread that cannot start is done here too.
        if (i == 0 || pthread_create(&tid[started], NULL, clear_part, &jobs[i]) != 0)
            clear_part(&jobs[i]);
        else
            started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 63); }

static TTEntry *bucket_of(const TT *tt, Key key)
{
    return tt->entries + (size_t)(key & (tt->bucket_count - 1)) * TT_BUCKET;
}

void tt_prefetch(const TT *tt, Key key) { __builtin_prefetch(bucket_of(tt, key)); }

bool tt_probe(const TT *tt, Key key, TTData *out)
{
    if (!tt->entries)
        return false;
    TTEntry *b = bucket_of(tt, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t data = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((check ^ data) != key || data == 0)
            continue;
        out->move = (uint16_t)data;
        out->score = (Score)(int16_t)(data >> 16);
        out->eval = (Score)(int16_t)(data >> 32);
        out->depth = data_depth(data);
        out->bound = (Bound)((data >> 56) & 3);
        return true;
    }
    return false;
}

void tt_store(TT *tt, Key key, uint16_t move, Score score, Score eval, Depth depth, Bound bound)
{
    if (!tt->entries)
        return;
    TTEntry *b = bucket_of(tt, key), *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t data = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if (data == 0 || (check ^ data) == key) {
            // Same position: keep its move when the new search has none, and keep a deeper
            // exact result of this search over a shallow bound.
            if (data != 0 && (check ^ data) == key) {
                if (!move)
                    move = (uint16_t)data;
                if (bound != BOUND_EXACT && data_gen(data) == tt->generation &&
                    data_depth(data) > depth + 2)
                    return;
            }
            victim = &b[i];
            break;
        }
        // Replace the shallowest entry, counting entries of older searches as much shallower.
        int age = (tt->generation - data_gen(data)) & 63;
        int value = data_depth(data) - 8 * age;
        if (value < worst) {
            worst = value;
            victim = &b[i];
        }
    }
    uint64_t data = pack(move, score, eval, depth, bound, tt->generation);
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

int tt_hashfull(const TT *tt)
{
    if (!tt->entries)
        return 0;
    size_t sample = tt->bucket_count < 250 ? tt->bucket_count : 250;
    int used = 0;
    for (size_t i = 0; i < sample * TT_BUCKET; i++) {
        uint64_t data = atomic_load_explicit(&tt->entries[i].data, memory_order_relaxed);
        if (data && data_gen(data) == tt->generation)
            used++;
    }
    return (int)(used * 1000 / (int)(sample * TT_BUCKET));
}
