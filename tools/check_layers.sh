#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the module boundaries of docs/style.md (section 3), with no exceptions:
# - in src/ and include/, a module includes only modules of earlier layers (a layer's modules
#   never include each other: uci and hub, say);
# - in tools/, a file includes only the engine facade, the text and value types it hands out
#   (engine, notation, board, rules, types), the endgame databases' index and files (egdb:
#   for the generator), the evaluation's features and weights (eval: for the trainer) and the
#   tools' own headers.
# - the front ends (options, protocol, bench, uci, hub, main) reach the engine through its
#   facade alone: besides their own calls they call only engine_*, notation_*, util_* and the
#   front-end modules below them, whatever their includes let them see (a call is a module's
#   when its name is declared in that module's header).
# Prints each violation; exits 1 if any.
layers="types|bitboard util platform|tables|move|board|movegen|notation|rules eval tt|egdb eval_builtin book net|verdict|movepick timeman|search_worker|search|report|pool|engine|options|protocol|plugin|bench|uci hub cb ei|main"
tool_allowed="engine egdb verdict eval net book notation board move rules types util"
front_ends="options protocol plugin bench uci hub cb ei main"
engine_modules="tables board movegen rules eval tt egdb movepick timeman search report pool"
layer() {
    i=0
    IFS='|'
    for group in $layers; do
        IFS=' '
        for m in $group; do
            [ "$m" = "$1" ] && { echo $i; return; }
        done
        IFS='|'
        i=$((i + 1))
    done
    IFS=' '
    echo -1
}
includes() { sed -n 's/^#include "\(.*\)\.h"/\1/p' "$1"; }
fail=0
for f in src/*.c include/*.h; do
    mod=$(basename "$f"); mod=${mod%.*}
    r=$(layer "$mod")
    [ "$r" -lt 0 ] && { echo "check-layers: $f is not in the layer order"; fail=1; continue; }
    for inc in $(includes "$f"); do
        [ "$inc" = "$mod" ] && continue
        [ "$inc" = bench_positions ] && continue # data generated from bench/positions.txt
        ri=$(layer "$inc")
        if [ "$ri" -lt 0 ] || [ "$ri" -ge "$r" ]; then
            echo "check-layers: $f includes $inc.h, which is not in a layer below $mod"
            fail=1
        fi
    done
done
# Calls from the front ends into the modules behind the facade.
for fe in $front_ends; do
    f=src/$fe.c
    [ -f "$f" ] || continue
    for m in $engine_modules; do
        for name in $(grep -oE "\b${m}_[a-z0-9_]+ *\(" "$f" | tr -d ' (' | sort -u); do
            for h in include/$m.h include/${m}_worker.h; do
                [ -f "$h" ] || continue
                if grep -qE "\b$name\b" "$h"; then
                    echo "check-layers: $f calls $name ($m): front ends use the engine facade"
                    fail=1
                fi
            done
        done
    done
done
tool_headers=$(find tools -name '*.h' -exec basename {} .h \;)
for f in $(find tools -name '*.c' -o -name '*.h'); do
    for inc in $(includes "$f"); do
        ok=0
        for a in $tool_allowed $tool_headers; do
            [ "$inc" = "$a" ] && ok=1
        done
        [ $ok = 1 ] && continue
        echo "check-layers: $f includes $inc.h: tools use the engine facade (engine.h) instead"
        fail=1
    done
done
[ $fail = 0 ] && echo "check-layers: ok"
exit $fail
