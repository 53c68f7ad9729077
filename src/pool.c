// SPDX-License-Identifier: MIT
// Owns the search threads: parking, waking, joining helpers, then having the result chosen.
#include "pool.h"

#include <string.h>
#include <time.h>

static void *thread_main(void *arg)
{
    PoolSlot *a = arg;
    Pool *p = a->pool;
    // Threads are created between searches; the creator recorded the search id of that
    // moment, so the next search is the first one this thread runs.
    uint64_t seen = a->first_seen;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (a->index < p->keep && p->search_id == seen)
            pthread_cond_wait(&p->wake, &p->mu);
        if (a->index >= p->keep)
            break;
        seen = p->search_id;
        SearchShared *sh = p->sh;
        pthread_mutex_unlock(&p->mu);

        search_run(p->workers[a->index], sh);

        pthread_mutex_lock(&p->mu);
        p->running--;
        if (a->index != 0) {
            pthread_cond_broadcast(&p->idle);
            continue;
        }
        // Main thread: wait for the helpers (they saw the stop flag), then report.
        while (p->running > 0)
            pthread_cond_wait(&p->idle, &p->mu);
        pthread_mutex_unlock(&p->mu);
        search_choose_result(p->sh); // the helpers are parked: their results are final
        if (p->on_done)
            p->on_done(p->done_ctx);
        pthread_mutex_lock(&p->mu);
        p->searching = false;
        pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

// Ends the threads from index `from` on (the pool is idle) and frees their workers.
static void stop_threads(Pool *p, int from)
{
    pthread_mutex_lock(&p->mu);
    p->keep = from;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = from; i < p->count; i++) {
        pthread_join(p->threads[i], NULL);
        search_worker_free(p->workers[i]);
        p->workers[i] = NULL;
    }
    if (p->count > from)
        p->count = from;
    pthread_mutex_lock(&p->mu); // the threads kept read it while they wait
    p->keep = POOL_MAX;
    pthread_mutex_unlock(&p->mu);
}

// Adds threads up to n (the pool is idle). False when one could not be started: those started
// before it are kept.
static bool start_threads(Pool *p, int n)
{
    while (p->count < n) {
        int i = p->count;
        bool fail = p->fail_after == 0;
        if (p->fail_after > 0)
            p->fail_after--;
        p->workers[i] = fail ? NULL : search_worker_new(i);
        p->slots[i] = (PoolSlot){p, i, p->search_id};
        if (!p->workers[i] ||
            pthread_create(&p->threads[i], NULL, thread_main, &p->slots[i]) != 0) {
            search_worker_free(p->workers[i]);
            p->workers[i] = NULL;
            return false;
        }
        p->count = i + 1;
    }
    return true;
}

bool pool_init(Pool *p, int threads)
{
    memset(p, 0, sizeof *p);
    p->keep = POOL_MAX;
    p->fail_after = -1;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    if (threads < 1 || threads > POOL_MAX)
        return false;
    if (start_threads(p, threads))
        return true;
    stop_threads(p, 0);
    return false;
}

bool pool_resize(Pool *p, int threads)
{
    if (threads < 1 || threads > POOL_MAX)
        return false;
    pool_wait(p);
    if (threads < p->count)
        stop_threads(p, threads);
    return start_threads(p, threads);
}

void pool_destroy(Pool *p)
{
    pool_wait(p);
    stop_threads(p, 0);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->idle);
}

void pool_start(Pool *p, SearchShared *sh, PoolDoneFn on_done, void *ctx)
{
    pthread_mutex_lock(&p->mu);
    sh->workers = p->workers;
    sh->thread_count = p->count;
    p->sh = sh;
    for (int i = 0; i < p->count; i++)
        search_worker_reset_counts(p->workers[i]); // parked: no thread reads them now
    p->on_done = on_done;
    p->done_ctx = ctx;
    p->running = p->count;
    p->searching = true;
    p->search_id++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
}

void pool_wait(Pool *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->searching)
        pthread_cond_wait(&p->idle, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

bool pool_wait_ms(Pool *p, int ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until); // the clock pthread_cond_timedwait reads
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&p->mu);
    int rc = 0;
    while (p->searching && rc == 0)
        rc = pthread_cond_timedwait(&p->idle, &p->mu, &until);
    bool done = !p->searching;
    pthread_mutex_unlock(&p->mu);
    return done;
}

bool pool_is_searching(Pool *p)
{
    pthread_mutex_lock(&p->mu);
    bool s = p->searching;
    pthread_mutex_unlock(&p->mu);
    return s;
}

void pool_clear(Pool *p)
{
    pool_wait(p);
    for (int i = 0; i < p->count; i++)
        search_worker_clear(p->workers[i]);
}
