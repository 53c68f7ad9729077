#!/bin/sh
# SPDX-License-Identifier: MIT
# Perft speed: median of RUNS runs of perft DEPTH from the start position, with and without
# leaf bulk counting. Usage: tools/perft_bench.sh [./damka] [DEPTH=12] [RUNS=5]
bin=${1:-./damka}
depth=${2:-12}
runs=${3:-5}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for mode in bulk --no-bulk; do
    flag=$([ "$mode" = bulk ] || echo --no-bulk)
    times=""
    i=0
    while [ $i -lt "$runs" ]; do
        t=$("$bin" perft "$depth" $flag 2>&1 >/dev/null | sed -n 's/^Time: \([0-9.]*\) s.*/\1/p')
        times="$times $t"
        i=$((i + 1))
    done
    nodes=$("$bin" perft 1 >/dev/null 2>&1; "$bin" perft "$depth" $flag 2>/dev/null | sed -n 's/^Nodes searched: //p')
    med=$(for t in $times; do echo "$t"; done | median)
    echo "perft $depth ($mode): runs:$times  median ${med} s  $(awk -v n="$nodes" -v t="$med" 'BEGIN {printf "%.0f leaves/s", n / t}')"
done
