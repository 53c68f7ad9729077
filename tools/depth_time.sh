#!/bin/sh
# SPDX-License-Identifier: MIT
# Time for one thread to complete depth DEPTH from the start position, RUNS times: prints each
# run's time in ms and nodes (from the engine's own info line) and the median time.
# Usage: tools/depth_time.sh [./damka] [DEPTH=20] [RUNS=5]
bin=${1:-./damka}
depth=${2:-20}
runs=${3:-5}
flag=$(mktemp -u)
times=""
i=0
while [ "$i" -lt "$runs" ]; do
    # stdin stays open (EOF would end the search) until the reply has been read; the reply is
    # read line by line by the shell (awk may wait for a full input buffer).
    t=$( (printf 'uci\nsetoption name Threads value 1\nsetoption name Hash value 64\n'
          printf 'position startpos\ngo depth %s\n' "$depth"
          while [ ! -e "$flag" ]; do sleep 0.05; done; echo quit) | "$bin" 2>/dev/null | {
        last=""
        while read -r line; do
            case "$line" in
            "info depth $depth "*) last=$line ;;
            bestmove*) break ;;
            esac
        done
        touch "$flag"
        echo "$last" | awk '{ for (i = 1; i < NF; i++) if ($i == "time") t = $(i + 1)
                               for (i = 1; i < NF; i++) if ($i == "nodes") n = $(i + 1)
                               print t, n }'
    })
    rm -f "$flag"
    echo "run $((i + 1)): ${t% *} ms, ${t#* } nodes"
    times="$times ${t% *}"
    i=$((i + 1))
done
printf 'depth %s: median %.0f ms over %d runs\n' "$depth" \
    "$(echo "$times" | tr ' ' '\n' | sh "$(dirname "$0")/median.sh")" "$runs"
