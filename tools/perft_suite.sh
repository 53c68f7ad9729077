#!/bin/sh
# SPDX-License-Identifier: MIT
# Deep perft suite: the start position to depth MAX (default 12) against the agreed counts of
# docs/perft.md. Usage: tools/perft_suite.sh ./damka [MAX]
bin=${1:-./damka}
max=${2:-12}
set -- 7 49 302 1469 7482 37986 190146 929899 4570586 22444032 110917189 544770444 2673979569
d=1
fail=0
for want in "$@"; do
    [ "$d" -gt "$max" ] && break
    got=$("$bin" perft "$d" 2>/dev/null | sed -n 's/^Nodes searched: //p')
    if [ "$got" = "$want" ]; then
        echo "perft $d: $got ok"
    else
        echo "perft $d: got '$got', want $want FAILED"
        fail=1
    fi
    d=$((d + 1))
done
exit $fail
