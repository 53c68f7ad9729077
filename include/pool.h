// SPDX-License-Identifier: MIT
// Worker threads for Lazy SMP: created once, parked between searches, all sharing one TT.
#ifndef POOL_H_INCLUDED
#define POOL_H_INCLUDED

#include <pthread.h>

#include "search.h"

enum { POOL_MAX = 256 };

typedef void (*PoolDoneFn)(void *ctx);

struct Pool;

// What a thread is started with: its pool and its worker index.
typedef struct PoolSlot {
    struct Pool *pool;
    int index;
    uint64_t first_seen; // the pool's search id when the thread was created
} PoolSlot;

typedef struct Pool {
    int count;
    PoolSlot slots[POOL_MAX];
    SearchWorker *workers[POOL_MAX];
    pthread_t threads[POOL_MAX];
    pthread_mutex_t mu;
    pthread_cond_t wake; // a new search or quit
    pthread_cond_t idle; // a search ended
    uint64_t search_id;  // bumped for every search
    int running;         // threads inside the current search
    bool searching;      // from pool_start until the done callback returned
    int keep;            // threads with an index at or past this one end (POOL_MAX: none)
    int fail_after;      // tests: thread starts left before one fails (-1: never)
    SearchShared *sh;
    PoolDoneFn on_done;
    void *done_ctx;
} Pool;

// Starts `threads` parked threads. Returns false (and leaves no thread) on failure.
bool pool_init(Pool *p, int threads);

// Changes the number of threads; only while idle. Threads are added or ended, the others kept:
// on failure (false) the pool keeps at least as many threads as before, never none.
bool pool_resize(Pool *p, int threads);

void pool_destroy(Pool *p);

// Starts a search of sh on every thread. Thread 0 is the main thread: when it has finished and
// every helper has stopped, the best result is chosen and on_done(ctx) is called on thread 0.
void pool_start(Pool *p, SearchShared *sh, PoolDoneFn on_done, void *ctx);

// Waits until the current search (if any) has ended and its done callback returned.
void pool_wait(Pool *p);

bool pool_is_searching(Pool *p);

// Waits at most ms milliseconds for the current search to end; true when it has.
bool pool_wait_ms(Pool *p, int ms);

// Forgets killers and history of every worker.
void pool_clear(Pool *p);

#endif
