#!/bin/sh
# SPDX-License-Identifier: MIT
# Lazy SMP speedup: time to reach DEPTH on each bench position with 1 and with THREADS
# threads; prints the median over positions of t(1)/t(THREADS), and nodes per second of each.
# Usage: tools/smp_bench.sh [./damka] [DEPTH=15] [THREADS=2]
bin=${1:-./damka}
depth=${2:-15}
threads=${3:-2}
one=$(mktemp)
many=$(mktemp)
"$bin" bench "$depth" 1 64 > "$one"
"$bin" bench "$depth" "$threads" 64 > "$many"
ratios=$(paste -d' ' "$one" "$many" | awk '/^Position/ {
        n = 0
        for (i = 1; i <= NF; i++) if ($i == "time") t[n++] = $(i + 1)
        if (t[1] > 0) print t[0] / t[1]
    }' | sort -n)
k=$(echo "$ratios" | wc -l)
med=$(echo "$ratios" | awk -v k="$k" '{a[NR] = $1} END {
    print (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }')
printf 'time to depth %s, median over %s positions: speedup %.2fx with %s threads\n' "$depth" \
    "$k" "$med" "$threads"
printf '1 thread:  %s\n%s threads: %s\n' "$(grep 'Nodes/second' "$one")" "$threads" \
    "$(grep 'Nodes/second' "$many")"
rm -f "$one" "$many"
