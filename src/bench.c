// SPDX-License-Identifier: MIT
// Owns the measuring jobs: perft divide from the command line and the search bench.
#include "bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "notation.h"
#include "util.h"

int64_t bench_perft_divide(FILE *out, const char *fen, int depth, bool bulk, char *err,
                           size_t errlen)
{
    Board b;
    static const char START[] = "W:W21-32:B1-12";
    if (depth < 1 || depth > BENCH_PERFT_DEPTH_MAX) {
        snprintf(err, errlen, "perft depth must be 1..%d", BENCH_PERFT_DEPTH_MAX);
        return -1;
    }
    engine_library_init();
    if (!notation_parse_fen(fen ? fen : START, &b, err, errlen))
        return -1;
    MoveList list;
    uint64_t counts[MAX_MOVES];
    uint64_t total = engine_perft_divide(&b, depth, bulk, &list, counts);
    for (int i = 0; i < list.count; i++) {
        char text[MOVE_TEXT_MAX];
        notation_move(&list.moves[i], MOVE_FMT_UCI, text, sizeof text);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)counts[i]);
    }
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    return (int64_t)total;
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
    if (argc < 1 || argc > 2 || depth < 1 || depth > BENCH_PERFT_DEPTH_MAX) {
        printf("error: usage: damka perft <depth 1..%d> [FEN] [--no-bulk]\n",
               BENCH_PERFT_DEPTH_MAX);
        return 2;
    }
    double t0 = util_now_s();
    int64_t n =
        bench_perft_divide(stdout, argc == 2 ? argv[1] : NULL, (int)depth, bulk, err, sizeof err);
    if (n < 0) {
        printf("error: %s\n", err);
        return 2;
    }
    double dt = util_now_s() - t0;
    fprintf(stderr, "Time: %.3f s, %.0f leaves/s\n", dt, dt > 0 ? (double)n / dt : 0.0);
    return 0;
}

// The bench positions (bench/positions.txt), compiled in: one FEN per entry.
static const char *const BENCH_FENS[] = {
#include "bench_positions.h"
};

// Parses argv[i] as an integer in lo..hi, or keeps def when absent. False on a bad value.
static bool arg_int(int argc, char **argv, int i, long lo, long hi, long *out)
{
    if (i >= argc)
        return true;
    char *end = NULL;
    errno = 0;
    long v = strtol(argv[i], &end, 10);
    if (errno || end == argv[i] || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int bench_run(FILE *out, int depth, int threads, int hash_mb, uint64_t *nodes_out)
{
    Engine *e = engine_new();
    if (!e) {
        fprintf(out, "error: out of memory\n");
        return 2;
    }
    char why[ENGINE_ERR_MAX];
    // The signature is the search's alone: no endgame databases, wherever they are installed.
    engine_set_egdb_path(e, "", why, sizeof why);
    if (!engine_set_hash(e, hash_mb) || !engine_set_threads(e, threads)) {
        engine_free(e);
        fprintf(out, "error: cannot set hash %d MB and %d threads\n", hash_mb, threads);
        return 2;
    }
    uint64_t total = 0;
    double searching = 0; // search time only: clearing the TT between positions is set-up
    int count = (int)(sizeof BENCH_FENS / sizeof BENCH_FENS[0]);
    for (int i = 0; i < count; i++) {
        char err[ENGINE_ERR_MAX], text[MOVE_TEXT_MAX] = "(none)";
        engine_new_game(e);
        if (!engine_set_position(e, BENCH_FENS[i], NULL, 0, MOVE_FMT_UCI, err, sizeof err)) {
            fprintf(out, "error: bench position %d: %s\n", i + 1, err);
            continue;
        }
        EngineGo go;
        EngineResult r;
        engine_go_depth(&go, depth);
        double t0 = util_now_s();
        engine_go(e, &go, NULL, NULL, NULL);
        engine_wait(e);
        double dt = util_now_s() - t0;
        searching += dt;
        engine_result(e, &r);
        uint64_t n = r.nodes;
        if (r.has_best)
            notation_move(&r.best, MOVE_FMT_UCI, text, sizeof text);
        fprintf(out, "Position %2d/%d: %-24s best %-10s score %6d nodes %llu time %.0f ms\n", i + 1,
                count, BENCH_FENS[i], text, r.score, (unsigned long long)n, dt * 1000.0);
        total += n;
    }
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    fprintf(out, "Nodes/second: %.0f\n", searching > 0 ? (double)total / searching : 0.0);
    engine_free(e);
    if (nodes_out)
        *nodes_out = total;
    return 0;
}

int bench_main(int argc, char **argv)
{
    long depth = BENCH_DEPTH_DEFAULT, threads = 1, hash = BENCH_HASH_DEFAULT;
    if (argc > 3 || !arg_int(argc, argv, 0, 1, MAX_PLY - 1, &depth) ||
        !arg_int(argc, argv, 1, 1, ENGINE_THREADS_MAX, &threads) ||
        !arg_int(argc, argv, 2, ENGINE_HASH_MIN, ENGINE_HASH_MAX, &hash)) {
        printf("error: usage: damka bench [depth 1..%d] [threads 1..%d] [hash_mb %d..%d]\n",
               MAX_PLY - 1, ENGINE_THREADS_MAX, ENGINE_HASH_MIN, ENGINE_HASH_MAX);
        return 2;
    }
    return bench_run(stdout, (int)depth, (int)threads, (int)hash, NULL);
}
