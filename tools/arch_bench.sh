#!/bin/sh
# SPDX-License-Identifier: MIT
# Bench nodes/s of several binaries, one run of each in turn, ROUNDS times; prints each one's
# median and its ratio to the first. Usage: sh tools/arch_bench.sh ROUNDS BIN1 BIN2 ...
set -eu
rounds=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
r=0
while [ $r -lt "$rounds" ]; do
    i=0
    for b in "$@"; do
        "$b" bench | sed -n 's/^Nodes\/second: //p' >> "$tmp/$i"
        i=$((i + 1))
    done
    r=$((r + 1))
done
i=0
first=
for b in "$@"; do
    m=$(sh "$(dirname "$0")/median.sh" < "$tmp/$i")
    [ -z "$first" ] && first=$m
    echo "$b: median $m nodes/s over $rounds runs, $(echo "$m $first" | awk '{printf "%.3f", $1 / $2}')x"
    i=$((i + 1))
done
