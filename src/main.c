// SPDX-License-Identifier: MIT
// Entry point: dispatches the first argument to a job (perft, bench) or the protocol.
#include <string.h>

#include "bench.h"
#include "hub.h"
#include "uci.h"

int main(int argc, char **argv)
{
    const char *job = argc > 1 ? argv[1] : "";
    if (strcmp(job, "perft") == 0)
        return bench_perft_main(argc - 2, argv + 2);
    if (strcmp(job, "bench") == 0)
        return bench_main(argc - 2, argv + 2);
    return proto_main(argc - 1, argv + 1, uci_dialect(), hub_dialect());
}
