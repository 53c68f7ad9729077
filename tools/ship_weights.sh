#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes a weights file (damka-train --out) the engine's built-in weights: checks that it loads,
# copies it to weights/eval-<first 12 hex digits of its SHA-256>.bin and removes the one it
# replaces (git rm when tracked). Then `make` builds it in; commit with the new bench count.
# Usage: sh tools/ship_weights.sh data/weights-roundN.bin
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: sh tools/ship_weights.sh WEIGHTS" >&2; exit 2; }
src=$1
make -s damka >/dev/null
out=$(printf 'setoption name EvalFile value %s\nisready\nquit\n' "$src" | ./damka 2>&1)
if printf '%s\n' "$out" | grep -q 'error'; then
    printf '%s\n' "$out" | grep 'error' >&2
    exit 1
fi
hash=$(sha256sum "$src" | cut -c1-12)
new=weights/eval-$hash.bin
for old in weights/eval-*.bin; do
    [ "$old" = "$new" ] && continue
    if git ls-files --error-unmatch "$old" >/dev/null 2>&1; then git rm -q "$old"; else rm -f "$old"; fi
done
cp "$src" "$new"
echo "built-in weights: $new"
