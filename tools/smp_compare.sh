#!/bin/sh
# SPDX-License-Identifier: MIT
# Compares the Lazy SMP speedup of several binaries: RUNS rounds of one tools/smp_bench.sh run
# per binary, in turn, so that each binary sees the same machine load; then each binary's
# median over all its position runs. Single runs spread widely (1.5x-1.8x): use 8 rounds or more.
# Usage: tools/smp_compare.sh RUNS DEPTH BIN...
runs=$1
depth=$2
shift 2
dir=$(mktemp -d)
r=0
while [ "$r" -lt "$runs" ]; do
    i=0
    for bin in "$@"; do
        out=$(RATIOS="$dir/$i" sh "$(dirname "$0")/smp_bench.sh" "$bin" "$depth" 2 1)
        printf 'round %d, %s: %s\n' $((r + 1)) "$bin" "$(echo "$out" | head -n 1)"
        i=$((i + 1))
    done
    r=$((r + 1))
done
i=0
for bin in "$@"; do
    printf '%s: speedup %.2fx, median over %s position runs\n' "$bin" \
        "$(sh "$(dirname "$0")/median.sh" < "$dir/$i")" "$(grep -c . "$dir/$i")"
    i=$((i + 1))
done
rm -rf "$dir"
