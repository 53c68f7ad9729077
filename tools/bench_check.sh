#!/bin/sh
# SPDX-License-Identifier: MIT
# Compares the node count of `damka bench` (one thread, default depth) with bench/signature.
bin=${1:-./damka}
sig=${2:-bench/signature}
want=$(cat "$sig")
got=$("$bin" bench 2>/dev/null | sed -n 's/^Nodes searched: //p')
if [ "$got" = "$want" ]; then
    echo "bench-check: $got nodes, as signed"
    exit 0
fi
echo "bench-check: bench searched '$got' nodes, bench/signature says $want" >&2
exit 1
