#!/bin/sh
# SPDX-License-Identifier: MIT
# `make` while the engine runs: a GUI user rebuilds with ./damka still playing. The portable
# build (ARCH=x86-64, another binary) replaces ./damka by a rename, the running engine still
# answers, and the native build puts its own back.
set -eu
cd "$(dirname "$0")/.."
make damka >/dev/null
fifo=$(mktemp -u /tmp/damka-busy.XXXXXX)
mkfifo "$fifo"
./damka < "$fifo" > "$fifo.out" &
pid=$!
exec 3> "$fifo"
echo isready >&3
if ! make damka ARCH=x86-64 > "$fifo.log" 2>&1; then
    cat "$fifo.log"
    echo "busy-build: make failed while ./damka ran" >&2
    kill "$pid"; rm -f "$fifo" "$fifo.out" "$fifo.log"; exit 1
fi
echo quit >&3
exec 3>&-
wait "$pid"
grep -q readyok "$fifo.out" || { echo "busy-build: the running engine did not answer" >&2; exit 1; }
grep -q "updated damka" "$fifo.log" || { echo "busy-build: damka was not replaced" >&2; exit 1; }
./damka --version | grep -q '(x86-64)'
make damka > /dev/null
./damka --version | grep -q '(native)'
# Nothing changed: nothing is relinked or replaced.
make damka > "$fifo.log" 2>&1
if grep -q "updated damka\|-o build" "$fifo.log"; then
    cat "$fifo.log"; echo "busy-build: a second make rebuilt or replaced damka" >&2; exit 1
fi
rm -f "$fifo" "$fifo.out" "$fifo.log"
echo "busy-build: make replaced ./damka while it ran; a second make changed nothing"
