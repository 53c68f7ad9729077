#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks that each module includes only modules to its left in the layer order of
# docs/style.md (section 3). Prints each violation; exits 1 if any.
order="types bitboard tables board notation movegen rules eval tt history movepick timeman search pool book engine protocol protocol_hub bench main"
rank() {
    i=0
    for m in $order; do
        [ "$m" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}
fail=0
for f in src/*.c include/*.h; do
    mod=$(basename "$f"); mod=${mod%.*}
    r=$(rank "$mod")
    [ "$r" -lt 0 ] && { echo "check-layers: $f is not in the layer order"; fail=1; continue; }
    for inc in $(sed -n 's/^#include "\(.*\)\.h"/\1/p' "$f"); do
        [ "$inc" = "$mod" ] && continue
        [ "$inc" = bench_positions ] && continue # generated from bench/positions.txt
        ri=$(rank "$inc")
        # notation and movegen share a layer; protocol and bench too.
        if [ "$ri" -lt 0 ] || [ "$ri" -gt "$r" ]; then
            case "$mod:$inc" in
                notation:movegen|bench:protocol|protocol:bench|protocol:protocol_hub) continue ;;
            esac
            echo "check-layers: $f includes $inc.h, which sits above it"
            fail=1
        fi
    done
done
[ $fail = 0 ] && echo "check-layers: ok"
exit $fail
