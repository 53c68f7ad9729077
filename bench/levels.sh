#!/bin/sh
# SPDX-License-Identifier: MIT
# The Elo of the Skill Levels: each named level of the page (0, 5, 10, 15) against the next one,
# the middle ones and 18 against full strength (20), GAMES games each at ST seconds a move from
# the FMJD table's openings, book off (the levels alone are measured). Logs and games go to
# OUT/levels-A-vs-B.{log,pdn}; the last line of each log is its score, Elo and error.
#   sh bench/levels.sh [GAMES] [ST] [OUT]      (defaults: 100 games, 0.2 s, build/levels)
# Run nothing else meanwhile: both cores are used.
set -eu
cd "$(dirname "$0")/.."
games=${1:-100}
st=${2:-0.2}
out=${3:-build/levels}
mkdir -p "$out"
make -s damka damka-match
cp damka "$out/damka" # the binary measured, unchanged by builds meanwhile
for pair in "0 5" "5 10" "10 15" "15 20" "10 20" "5 20" "18 20"; do
    set -- $pair
    log="$out/levels-$1-vs-$2.log"
    if [ -f "$log" ] && grep -q "^Elo difference\|^Finished match" "$log"; then
        echo "levels $1 vs $2: done ($log)"
        continue
    fi
    ./damka-match -engine cmd="$out/damka" name="level$1" "option.Skill Level=$1" \
        -engine cmd="$out/damka" name="level$2" "option.Skill Level=$2" \
        -each st="$st" option.OwnBook=false option.Hash=16 \
        -openings file=fmjd-64.txt order=random -games "$games" -concurrency 2 -seed 42 \
        -pdnout "$out/levels-$1-vs-$2.pdn" >"$log" 2>&1
    echo "levels $1 vs $2: $(grep '^Progress' "$log" | tail -1)"
done
