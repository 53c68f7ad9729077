#!/bin/sh
# SPDX-License-Identifier: MIT
# Self-play data for the network evaluation (issue 43), in chunks that each end in a usable
# file: data/nn/chunk-NNN.bin (16-byte records, tools/datagen/record.h), CHUNK_GAMES games each
# at NODES nodes a move with the endgame databases of egdb/, seed 1000 + NNN. A chunk is done when
# its .progress file is gone; a stopped run resumes the chunk it was in (damka-datagen resumes
# within a file). data/nn/chunks.txt records the command of every chunk. Runs at the lowest
# priority (nice 19, its session's autogroup too), so that other work goes first; `kill -STOP` pauses it for a measurement and
# `kill -CONT` resumes it.
# Usage: sh tools/nn_datagen.sh [CHUNKS (100)] [CHUNK_GAMES (50000)] [NODES (5000)]
set -eu
cd "$(dirname "$0")/.."
chunks=${1:-100} games=${2:-50000} nodes=${3:-5000}
[ -d egdb ] || { echo "nn_datagen: build the databases first (make egdb)" >&2; exit 2; }
make -s damka-datagen >/dev/null
mkdir -p data/nn
# Under the kernel's autogroups nice counts only within a session: the lowest priority is asked
# for this session's group as well (where the kernel lets it).
if [ -w /proc/self/autogroup ]; then echo 19 > /proc/self/autogroup 2>/dev/null || true; fi
i=1
while [ "$i" -le "$chunks" ]; do
    n=$(printf '%03d' "$i")
    out=data/nn/chunk-$n.bin
    if [ -f "$out" ] && [ ! -f "$out.progress.running" ] && [ ! -f "$out.progress" ]; then
        i=$((i + 1)); continue # finished
    fi
    cmd="./damka-datagen --out $out --games $games --threads 2 --nodes $nodes --jitter 25 --random-plies 8 --seed $((1000 + i)) --egdb egdb"
    grep -qF "$out " data/nn/chunks.txt 2>/dev/null || echo "$(date -u +%F) $cmd" >> data/nn/chunks.txt
    touch "$out.progress.running"
    nice -n 19 $cmd >> data/nn/log.txt 2>&1
    rm -f "$out.progress.running" "$out.progress"
    i=$((i + 1))
done
