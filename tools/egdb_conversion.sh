#!/bin/sh
# SPDX-License-Identifier: MIT
# Conversion test of the endgame databases: N positions that the databases say the side to
# move wins (damka-egdb --sample-wins), each played twice at SECONDS per move, Damka with the
# databases against Damka without them, colours swapped: once the side with the databases has
# the win, once the side without. Prints how many of each it converted, and why the others
# ended (a 7.2 draw, repetition).
# Usage: sh tools/egdb_conversion.sh N SECONDS DBDIR [SEED]
# SAMPLE=--loose-only samples wins only the loose tables see (damka-egdb --help); DAMKA=BINARY
# plays another build (both sides).
set -eu
n=$1 st=$2 db=$3 seed=${4:-7}
out=${OUT:-bench/matches/egdb-conversion}
damka=${DAMKA:-./damka}
mkdir -p "$(dirname "$out")"
rm -f "$out.pdn" # damka-match appends to a PDN file
./damka-egdb --dir "$db" --sample-wins "$n" --seed "$seed" ${SAMPLE:-} > "$out.fens"
./damka-match -engine cmd="$damka" name=db "option.EGDBPath=$db" \
    -engine cmd="$damka" name=nodb "option.EGDBPath=<empty>" \
    -each st="$st" option.Hash=64 -games $((2 * n)) -concurrency 2 \
    -openings file="$out.fens" order=sequential -pdnout "$out.pdn" > "$out.log" 2>&1
# The side to move of each game's FEN has the win: did the engine playing it convert?
awk '
    { v = $2; gsub(/["\]]/, "", v) }
    /^\[White / { w = v } /^\[Black / { b = v } /^\[Result / { r = v }
    /^\[FEN / { side = substr(v, 1, 1) }
    /^\[Termination/ {
        att = side == "W" ? w : b
        won = (side == "W" && r == "1-0") || (side == "B" && r == "0-1")
        games[att]++; conv[att] += won
    }
    END {
        for (e in games)
            printf "%s converted %d of %d database wins\n", e, conv[e], games[e]
    }' "$out.pdn"
grep -h "^Score of" "$out.log" | tail -1
