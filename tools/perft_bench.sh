#!/bin/sh
# SPDX-License-Identifier: MIT
# Perft speed: median of RUNS runs of perft DEPTH from the start position, with and without
# leaf bulk counting. Usage: tools/perft_bench.sh [./damka] [DEPTH=12] [RUNS=5]
bin=${1:-./damka}
depth=${2:-12}
runs=${3:-5}
out=$(mktemp)
for flag in "" --no-bulk; do
    times=""
    i=0
    while [ $i -lt "$runs" ]; do
        "$bin" perft "$depth" $flag > "$out" 2>&1
        nodes=$(sed -n 's/^Nodes searched: \([0-9]*\).*/\1/p' "$out")
        times="$times $(sed -n 's/.*Time: \([0-9.]*\) s.*/\1/p' "$out")"
        i=$((i + 1))
    done
    med=$(for t in $times; do echo "$t"; done | sh "$(dirname "$0")/median.sh")
    printf 'perft %s %s: nodes %s, runs (s):%s, median %s s, %s leaves/s\n' "$depth" \
        "${flag:-(bulk counting)}" "$nodes" "$times" "$med" \
        "$(awk -v n="$nodes" -v t="$med" 'BEGIN {printf "%.0f", n / t}')"
done
rm -f "$out"
