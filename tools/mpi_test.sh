#!/bin/sh
# SPDX-License-Identifier: MIT
# make test-mpi: damka-match over MPI ranks on this machine (mpirun --oversubscribe -np 3):
# 1. a 12-game match ends with the summary lines of the same match in one process (fixed depth:
#    the same games), every rank having played;
# 2. an SPRT between unequal engines stops the whole run when it decides;
# 3. a run whose rank 1 is killed mid-match ends (mpirun ends every rank), and -resume on its
#    PDN completes the match with the one-process score.
# 4. damka-datagen on three ranks writes, merged, the file of the same three seeds run one after
#    the other on one process and merged in rank order.
# 5. damka-egdb --pieces 4 on three ranks writes the files of one process, byte for byte.
# Usage: sh tools/mpi_test.sh DAMKA_MATCH_MPI DAMKA_MATCH DAMKA DAMKA_DATAGEN_MPI DAMKA_DATAGEN
#        DAMKA_EGDB_MPI DAMKA_EGDB
set -eu
mpi=$1 single=$2 damka=$3 datagen_mpi=$4 datagen=$5 egdb_mpi=$6 egdb=$7
dir=$(mktemp -d /tmp/damka-mpi-XXXXXX)
trap 'rm -rf "$dir"' EXIT
run="mpirun --oversubscribe -np 3"
[ "$(id -u)" = 0 ] && run="mpirun --allow-run-as-root --oversubscribe -np 3"
common="-engine cmd=$damka name=a -engine cmd=$damka name=b option.Hash=8 -each option.OwnBook=false -openings file=book/openings/fmjd-64.txt -seed 5"
summary() { grep -E '^(Score of|Elo difference|Games ended by the rules)' "$1" | tail -3; }
fail() { echo "test-mpi: FAILED: $*"; exit 1; }

# 1. The same match in one process and on three ranks.
$single $common -each depth=3 -games 12 > "$dir/single.txt"
$run $mpi $common -each depth=3 -games 12 > "$dir/ranks.txt" 2>&1
summary "$dir/single.txt" > "$dir/a"
summary "$dir/ranks.txt" > "$dir/b"
cmp -s "$dir/a" "$dir/b" || { cat "$dir/a" "$dir/b"; fail "three ranks ended differently"; }
grep -q '^Ranks: 3; games played by each:' "$dir/ranks.txt" || fail "no Ranks line"
played=$(sed -n 's/^Ranks: 3; games played by each: //p' "$dir/ranks.txt")
for n in $played; do [ "$n" -gt 0 ] || fail "a rank played no game ($played)"; done
echo "test-mpi: 12 games on 3 ranks ($played): $(grep '^Score of' "$dir/b")"

# 2. An SPRT decides and the run stops well before its 400 games.
$run $mpi -engine cmd=$damka name=deep depth=5 -engine cmd=$damka name=shallow depth=1 \
    -each option.OwnBook=false option.Hash=8 -openings file=book/openings/fmjd-64.txt -seed 6 \
    -games 400 -sprt elo0=0 elo1=200 alpha=0.05 beta=0.05 > "$dir/sprt.txt" 2>&1
grep -q 'H1 was accepted' "$dir/sprt.txt" || { tail -5 "$dir/sprt.txt"; fail "the SPRT did not decide"; }
games=$(sed -n 's/^Score of deep vs shallow: .*\] \([0-9]*\)$/\1/p' "$dir/sprt.txt" | tail -1)
[ "$games" -lt 400 ] || fail "the SPRT run played all its games"
echo "test-mpi: SPRT decided after $games games"

# 3. Rank 1 killed mid-match (the PDN has 6 games); -resume completes it.
$single $common -each depth=8 -games 40 > "$dir/whole.txt"
$run $mpi $common -each depth=8 -games 40 -pdnout "$dir/cut.pdn" > "$dir/killed.txt" 2>&1 &
job=$!
finished() { n=$(grep -c '^\[Round' "$dir/cut.pdn" 2>/dev/null || true); echo "${n:-0}"; }
while [ "$(finished)" -lt 6 ]; do sleep 0.1; done
for p in $(pgrep -f "damka-match-mpi"); do
    if tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -q '^OMPI_COMM_WORLD_RANK=1$'; then
        kill -9 "$p"
    fi
done
wait "$job" && fail "the run went on without rank 1" || true
before=$(grep -c '^\[Round' "$dir/cut.pdn")
[ "$before" -lt 40 ] || fail "rank 1 was killed after the last game"
$run $mpi $common -each depth=8 -games 40 -pdnout "$dir/cut.pdn" -resume > "$dir/resumed.txt" 2>&1
grep -q "Resumed from .*: $before games already played" "$dir/resumed.txt" || fail "no resume line"
summary "$dir/whole.txt" > "$dir/a"
summary "$dir/resumed.txt" > "$dir/b"
cmp -s "$dir/a" "$dir/b" || { cat "$dir/a" "$dir/b"; fail "the resumed run ended differently"; }
echo "test-mpi: rank 1 killed after $before games were written; resumed to $(grep '^Score of' "$dir/b")"
# 4. Data on three ranks, and the same seeds on one process.
gen="--games 12 --threads 1 --nodes 300 --seed 40"
$run $datagen_mpi --out "$dir/ranks.bin" $gen > "$dir/datagen.txt" 2>&1
for r in 0 1 2; do
    $datagen --out "$dir/one.bin.rank$r" --games 12 --threads 1 --nodes 300 --seed $((40 + r)) \
        2> /dev/null
done
$datagen --merge "$dir/one.bin" "$dir/one.bin.rank0" "$dir/one.bin.rank1" "$dir/one.bin.rank2" \
    > /dev/null
cmp -s "$dir/ranks.bin" "$dir/one.bin" || fail "the ranks' merged data differ from one process's"
positions=$(($(wc -c < "$dir/ranks.bin") / 16))
[ "$positions" -gt 300 ] || fail "too few positions ($positions)"
echo "test-mpi: datagen on 3 ranks: $positions positions, the same bytes as one process"
# 5. The 4-piece databases on three ranks and in one process.
$egdb --pieces 4 --dir "$dir/eg1" --threads 2 2> /dev/null
$run $egdb_mpi --pieces 4 --dir "$dir/eg3" --threads 1 > "$dir/egdb.txt" 2>&1 ||
    { tail -3 "$dir/egdb.txt"; fail "the databases on three ranks"; }
files=0
for f in "$dir"/eg1/*; do
    cmp -s "$f" "$dir/eg3/$(basename "$f")" || fail "$(basename "$f") differs"
    files=$((files + 1))
done
[ "$files" -gt 50 ] && [ "$(ls "$dir/eg3" | wc -l)" -eq "$files" ] || fail "files missing"
echo "test-mpi: databases of up to 4 pieces on 3 ranks: $files files, byte for byte"
echo "test-mpi: ok"
