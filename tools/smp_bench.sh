#!/bin/sh
# SPDX-License-Identifier: MIT
# Lazy SMP speedup: time to reach DEPTH on each bench position with 1 and with THREADS
# threads, RUNS times (1 and THREADS alternating); prints the median over every position of
# every run of t(1)/t(THREADS), each run's median, and the nodes per second of each.
# Usage: [HASH=MB] [RATIOS=FILE] tools/smp_bench.sh [./damka] [DEPTH=15] [THREADS=2] [RUNS=1]
# HASH is the table size (64 MB); RATIOS, a file the per-position ratios are appended to.
bin=${1:-./damka}
depth=${2:-15}
threads=${3:-2}
runs=${4:-1}
one=$(mktemp)
many=$(mktemp)
all=$(mktemp)
median() { sh "$(dirname "$0")/median.sh"; }
r=0
while [ "$r" -lt "$runs" ]; do
    "$bin" bench "$depth" 1 ${HASH:-64} > "$one"
    "$bin" bench "$depth" "$threads" ${HASH:-64} > "$many"
    ratios=$(paste -d' ' "$one" "$many" | awk '/^Position/ {
            n = 0
            for (i = 1; i <= NF; i++) if ($i == "time") t[n++] = $(i + 1)
            if (t[1] > 0) print t[0] / t[1]
        }')
    echo "$ratios" >> "$all"
    printf 'run %d: speedup %.2fx (median of %d positions); nodes/s %s with 1 thread, %s with %s\n' \
        $((r + 1)) "$(echo "$ratios" | median)" "$(echo "$ratios" | wc -l)" \
        "$(awk '/Nodes\/second/ { print $2 }' "$one")" \
        "$(awk '/Nodes\/second/ { print $2 }' "$many")" "$threads"
    r=$((r + 1))
done
printf 'time to depth %s, median over %s position runs: speedup %.2fx with %s threads\n' \
    "$depth" "$(grep -c . "$all")" "$(median < "$all")" "$threads"
[ -n "$RATIOS" ] && cat "$all" >> "$RATIOS"
rm -f "$one" "$many" "$all"
