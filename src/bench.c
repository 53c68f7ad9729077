// SPDX-License-Identifier: MIT
// Owns the measuring jobs: perft divide from the command line and the search bench.
#include "bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "movegen.h"
#include "notation.h"

enum { PERFT_DEPTH_MAX = 20 };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int64_t bench_perft_divide(FILE *out, const char *fen, int depth, bool bulk, char *err,
                           size_t errlen)
{
    Board b;
    if (depth < 1 || depth > PERFT_DEPTH_MAX) {
        snprintf(err, errlen, "perft depth must be 1..%d", PERFT_DEPTH_MAX);
        return -1;
    }
    if (fen)
        if (!notation_parse_fen(fen, &b, err, errlen))
            return -1;
    if (!fen)
        board_start(&b);
    MoveList list;
    movegen_all(&b, &list);
    int64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        Board child = b;
        char text[MOVE_TEXT_MAX];
        board_play(&child, &list.moves[i]);
        uint64_t n = movegen_perft(&child, depth - 1, bulk);
        notation_move(&list.moves[i], MOVE_FMT_UCI, text, sizeof text);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)n);
        total += (int64_t)n;
    }
    fprintf(out, "\nNodes searched: %lld\n", (long long)total);
    return total;
}

int bench_perft_main(int argc, char **argv)
{
    char err[160], *end = NULL;
    long depth = -1;
    bool bulk = true;
    if (argc >= 1 && strcmp(argv[argc - 1], "--no-bulk") == 0) {
        bulk = false; // every leaf is played: for measuring the generator without bulk counting
        argc--;
    }
    if (argc >= 1) {
        errno = 0;
        depth = strtol(argv[0], &end, 10);
        if (errno || end == argv[0] || *end)
            depth = -1;
    }
    if (argc < 1 || argc > 2 || depth < 1 || depth > PERFT_DEPTH_MAX) {
        printf("error: usage: damka perft <depth 1..%d> [FEN] [--no-bulk]\n", PERFT_DEPTH_MAX);
        return 2;
    }
    double t0 = now_seconds();
    int64_t n = bench_perft_divide(stdout, argc == 2 ? argv[1] : NULL, (int)depth, bulk, err,
                                   sizeof err);
    if (n < 0) {
        printf("error: %s\n", err);
        return 2;
    }
    double dt = now_seconds() - t0;
    fprintf(stderr, "Time: %.3f s, %.0f leaves/s\n", dt, dt > 0 ? (double)n / dt : 0.0);
    return 0;
}

int bench_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("error: bench needs the search, which is not built yet\n");
    return 2;
}
