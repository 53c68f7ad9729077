// SPDX-License-Identifier: MIT
// A match over several processes (MPI ranks, on one machine or a cluster): rank 0 owns the
// schedule, the output, the PDN and the SPRT; every rank plays games on its own threads, asks
// rank 0 for the next one and sends each finished game back (cluster.c). Built with MPI by
// `make MPI=1` (mpicc, -DDAMKA_MPI); without it these functions run one process alone.
#ifndef CLUSTER_H_INCLUDED
#define CLUSTER_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

// Starts MPI when built with it (a no-op otherwise). False after an error line.
bool cluster_start(int *argc, char ***argv);
void cluster_finish(void);
// Ends the process (every rank of the run, under MPI) with status: rank 0's fatal errors.
_Noreturn void cluster_abort(int status);

int cluster_rank(void); // 0 without MPI
int cluster_size(void); // 1 without MPI

// Waits for every rank; true when every rank passed ok (without MPI: ok).
bool cluster_all(bool ok);

// Rank 0's bytes to every rank (the opening order, drawn from the clock when no seed is set).
void cluster_broadcast(void *buf, size_t bytes);

// Ranks other than 0, from any of their threads: the next game's index from rank 0 (-1: no
// more), a finished game's message, and this thread's farewell.
int cluster_ask(void);
void cluster_send_result(const void *msg, size_t bytes);
void cluster_send_done(void);

// Rank 0, on a thread of its own: answers the other ranks until `threads` of their threads have
// said farewell. on_ask gives the next game (-1: none), on_result records a game's message.
void cluster_serve(int threads, int (*on_ask)(void *ctx),
                   void (*on_result)(void *ctx, const void *msg, size_t bytes), void *ctx);

#endif
