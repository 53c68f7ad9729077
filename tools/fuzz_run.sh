#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs each fuzz harness for SECONDS on a copy of its corpus, after replaying the inputs that
# once broke something (tests/fuzz/regressions). Prints executions and crashes per harness;
# exits non-zero if any crash was found. New crash inputs are left in build/fuzz/crashes/.
secs=${1:-60}
status=0
mkdir -p build/fuzz/crashes
for name in protocol notation; do
    bin=build/fuzz/fuzz_$name
    work=build/fuzz/corpus-$name
    mkdir -p "$work"
    cp tests/fuzz/corpus/$name/* "$work"/ 2>/dev/null
    if ls tests/fuzz/regressions/${name}_* >/dev/null 2>&1; then
        "$bin" tests/fuzz/regressions/${name}_* > build/fuzz/replay-$name.log 2>&1 || {
            echo "fuzz $name: a regression input fails again (build/fuzz/replay-$name.log)"
            status=1
        }
    fi
    "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix=build/fuzz/crashes/${name}_ "$work" > build/fuzz/run-$name.log 2>&1
    rc=$?
    execs=$(grep -o 'Done [0-9]* runs' build/fuzz/run-$name.log | grep -o '[0-9]*')
    crashes=$(ls build/fuzz/crashes/${name}_* 2>/dev/null | wc -l)
    echo "fuzz $name: ${secs}s, executions ${execs:-0}, crashes $crashes (exit $rc)"
    [ "$rc" = 0 ] && [ "$crashes" = 0 ] || status=1
done
exit $status
