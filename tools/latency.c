// SPDX-License-Identifier: MIT
// Stop latency: starts an engine, and TRIES times runs `go infinite`, lets it search, sends
// `stop` and times the wait for `bestmove`. Prints the median and the maximum in ms.
// With MOVETIME, times `go movetime MOVETIME` to `bestmove` instead (what a match runner
// with no time margin checks), and counts the replies later than MOVETIME. With `first`, starts
// TRIES fresh engines and times each one's first search (`go depth 8` after `isready`): what
// touching an untouched table during the search costs.
// Usage: damka-latency [CMD] [TRIES] [THREADS] [MOVETIME | first]
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Times the first search of TRIES fresh engines; prints median and max.
static int first_search(const char *cmd, int tries, int threads)
{
    char line[16384];
    double *ms = malloc((size_t)tries * sizeof *ms);
    for (int i = 0; i < tries && ms; i++) {
        Proc p;
        if (!proc_start(&p, cmd, NULL))
            return 1;
        proc_send(&p, "setoption name Threads value %d", threads);
        proc_send(&p, "isready");
        if (proc_wait_for(&p, "readyok", util_now_ms() + 10000, line, sizeof line) != REPLY_OK)
            return 1;
        double t0 = (util_now_s() * 1e6);
        proc_send(&p, "go depth 8");
        if (proc_wait_for(&p, "bestmove", util_now_ms() + 10000, line, sizeof line) != REPLY_OK)
            return 1;
        ms[i] = ((util_now_s() * 1e6) - t0) / 1000.0;
        proc_stop(&p, "quit");
    }
    if (!ms)
        return 1;
    qsort(ms, (size_t)tries, sizeof *ms, cmp_double);
    printf("first go depth 8 of %d fresh engines, %d thread(s): median %.3f ms, max %.3f ms\n",
           tries, threads, ms[tries / 2], ms[tries - 1]);
    free(ms);
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "./damka";
    int tries = argc > 2 ? atoi(argv[2]) : 100, threads = argc > 3 ? atoi(argv[3]) : 1;
    if (argc > 4 && strcmp(argv[4], "first") == 0)
        return tries >= 1 && tries <= 10000 && threads >= 1 && threads <= 256
                   ? first_search(cmd, tries, threads)
                   : 2;
    int movetime = argc > 4 ? atoi(argv[4]) : 0;
    if (tries < 1 || tries > 10000 || threads < 1 || threads > 256 || movetime < 0 ||
        movetime > 60000) {
        fprintf(stderr, "usage: damka-latency [CMD] [TRIES 1..10000] [THREADS] [MOVETIME]\n");
        return 2;
    }
    Proc p;
    char line[16384];
    if (!proc_start(&p, cmd, NULL)) {
        fprintf(stderr, "cannot start %s\n", cmd);
        return 1;
    }
    proc_send(&p, "setoption name Threads value %d", threads);
    proc_send(&p, "isready");
    if (proc_wait_for(&p, "readyok", util_now_ms() + 10000, line, sizeof line) != REPLY_OK)
        return 1;
    double *ms = malloc((size_t)tries * sizeof *ms);
    static const char *const positions[] = {
        "startpos", "fen B:W17,21,22,23,24,26,27,29,30,31,32:B1,2,3,4,5,6,7,10,13,15,19",
        "fen W:W12,18,22,28,29,30,31:B3,11,15,20,21", "fen W:WK21,22,24,28:B13,18,23"};
    for (int i = 0; i < tries; i++) {
        proc_send(&p, "position %s", positions[i % 4]);
        double t0 = (util_now_s() * 1e6);
        if (movetime > 0) {
            proc_send(&p, "go movetime %d", movetime);
        } else {
            proc_send(&p, "go infinite");
            // Let it get deep: 150 to 400 ms into the search.
            struct timespec ts = {0, (150 + (i * 37) % 250) * 1000000L};
            nanosleep(&ts, NULL);
            t0 = (util_now_s() * 1e6);
            proc_send(&p, "stop");
        }
        if (proc_wait_for(&p, "bestmove", util_now_ms() + 10000 + movetime, line, sizeof line) !=
            REPLY_OK) {
            fprintf(stderr, "no bestmove (try %d)\n", i + 1);
            return 1;
        }
        ms[i] = ((util_now_s() * 1e6) - t0) / 1000.0;
    }
    proc_stop(&p, "quit");
    qsort(ms, (size_t)tries, sizeof *ms, cmp_double);
    if (movetime > 0) {
        int late = 0;
        for (int i = 0; i < tries; i++)
            late += ms[i] > movetime;
        printf("go movetime %d -> bestmove over %d tries, %d thread(s): median %.3f ms, "
               "max %.3f ms, %d later than %d ms\n",
               movetime, tries, threads, ms[tries / 2], ms[tries - 1], late, movetime);
    } else {
        printf("stop -> bestmove over %d tries, %d thread(s): median %.3f ms, max %.3f ms\n", tries,
               threads, ms[tries / 2], ms[tries - 1]);
    }
    free(ms);
    return 0;
}
