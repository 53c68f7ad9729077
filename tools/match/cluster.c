// SPDX-License-Identifier: MIT
// The match's messages between ranks (cluster.h). Every call that waits polls with a short
// sleep instead of blocking in MPI: Open MPI's blocking calls spin, and would take a core from
// the engines. MPI is used from one thread at a time (MPI_THREAD_SERIALIZED): rank 0 calls it
// from its serving thread only, the other ranks' game threads take turns under a lock.
#include "cluster.h"

#include <stdlib.h>

#ifdef DAMKA_MPI
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { TAG_ASK = 1, TAG_GAME, TAG_RESULT, TAG_DONE };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int rank, size = 1;

static void nap(void)
{
    struct timespec t = {0, 1000000}; // 1 ms
    nanosleep(&t, NULL);
}

// Waits for request r without spinning.
static void wait_for(MPI_Request *r)
{
    for (int done = 0;;) {
        MPI_Test(r, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nap();
    }
}

bool cluster_start(int *argc, char ***argv)
{
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "error: MPI did not start\n");
        return false;
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        fprintf(stderr, "error: this MPI cannot be called from several threads in turn\n");
        MPI_Finalize();
        return false;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return true;
}

void cluster_finish(void) { MPI_Finalize(); }

_Noreturn void cluster_abort(int status)
{
    if (size > 1)
        MPI_Abort(MPI_COMM_WORLD, status);
    MPI_Finalize();
    exit(status);
}

int cluster_rank(void) { return rank; }

int cluster_size(void) { return size; }

bool cluster_all(bool ok)
{
    int mine = ok, all = 0;
    MPI_Request r;
    MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD, &r);
    wait_for(&r);
    return all != 0;
}

void cluster_broadcast(void *buf, size_t bytes)
{
    MPI_Request r;
    MPI_Ibcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
    wait_for(&r);
}

int cluster_ask(void)
{
    int index = -1, me = rank;
    pthread_mutex_lock(&lock);
    MPI_Request r;
    MPI_Isend(&me, 1, MPI_INT, 0, TAG_ASK, MPI_COMM_WORLD, &r);
    wait_for(&r);
    MPI_Irecv(&index, 1, MPI_INT, 0, TAG_GAME, MPI_COMM_WORLD, &r);
    wait_for(&r);
    pthread_mutex_unlock(&lock);
    return index;
}

void cluster_send_result(const void *msg, size_t bytes)
{
    pthread_mutex_lock(&lock);
    MPI_Request r;
    MPI_Isend(msg, (int)bytes, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &r);
    wait_for(&r);
    pthread_mutex_unlock(&lock);
}

void cluster_send_done(void)
{
    int me = rank;
    pthread_mutex_lock(&lock);
    MPI_Request r;
    MPI_Isend(&me, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, &r);
    wait_for(&r);
    pthread_mutex_unlock(&lock);
}

void cluster_serve(int threads, int (*on_ask)(void *ctx),
                   void (*on_result)(void *ctx, const void *msg, size_t bytes), void *ctx)
{
    while (threads > 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            nap();
            continue;
        }
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        char *buf = malloc(count > 0 ? (size_t)count : 1);
        if (!buf) {
            fprintf(stderr, "error: out of memory for a rank's message\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE); // (the message has arrived: this does not wait)
        if (st.MPI_TAG == TAG_ASK) {
            int index = on_ask(ctx);
            MPI_Request r;
            MPI_Isend(&index, 1, MPI_INT, st.MPI_SOURCE, TAG_GAME, MPI_COMM_WORLD, &r);
            wait_for(&r);
        } else if (st.MPI_TAG == TAG_RESULT) {
            on_result(ctx, buf, (size_t)count);
        } else if (st.MPI_TAG == TAG_DONE) {
            threads--;
        }
        free(buf);
    }
}

#else // one process: nothing to send

bool cluster_start(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return true;
}

void cluster_finish(void) {}

_Noreturn void cluster_abort(int status) { exit(status); }

int cluster_rank(void) { return 0; }

int cluster_size(void) { return 1; }

bool cluster_all(bool ok) { return ok; }

void cluster_broadcast(void *buf, size_t bytes) { (void)buf, (void)bytes; }

int cluster_ask(void) { return -1; }

void cluster_send_result(const void *msg, size_t bytes) { (void)msg, (void)bytes; }

void cluster_send_done(void) {}

void cluster_serve(int threads, int (*on_ask)(void *ctx),
                   void (*on_result)(void *ctx, const void *msg, size_t bytes), void *ctx)
{
    (void)threads, (void)on_ask, (void)on_result, (void)ctx;
}

#endif
