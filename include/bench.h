// SPDX-License-Identifier: MIT
// Command-line jobs that measure the engine through its facade: perft (divide) and bench.
// Besides the dialects, the only writer to stdout.
#ifndef BENCH_H_INCLUDED
#define BENCH_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// `damka perft <depth> [FEN] [--no-bulk]`: one line per root move, then "Nodes searched: N";
// the time goes to stderr. Returns the exit status: 0, or 2 after one error line on stdout.
int bench_perft_main(int argc, char **argv);

// Divide perft printed to out (bulk: count the last ply without playing it); returns the
// total, or -1 with a message in err on a bad FEN or depth.
int64_t bench_perft_divide(FILE *out, const char *fen, int depth, bool bulk, char *err,
                           size_t errlen);

enum { BENCH_DEPTH_DEFAULT = 12, BENCH_HASH_DEFAULT = 16, BENCH_PERFT_DEPTH_MAX = 20 };

// `damka bench [depth] [threads] [hash_mb]`.
int bench_main(int argc, char **argv);

// Searches every bench position to depth, printing one line each and the totals to out.
// Stores the total node count in *nodes (if not NULL). Returns 0, or 2 on failure.
int bench_run(FILE *out, int depth, int threads, int hash_mb, uint64_t *nodes);

#endif
