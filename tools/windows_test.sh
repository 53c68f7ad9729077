#!/bin/sh
# SPDX-License-Identifier: MIT
# make test-windows: the Windows builds under Wine. The test host loads damka.dll as the GUIs
# do and plays 20 games (CheckerBoard interface against itself and against damka.exe, Kallisto
# interface against itself), checking every move, the time of each move, and how soon play-now
# and EI_Stop are answered; then damka.exe passes the protocol tests of the Linux binary.
# Usage: sh tools/windows_test.sh CHECK_BINARY
set -eu
cd "$(dirname "$0")/.."
check=$1
dir=build/windows/x64
export WINEDEBUG=-all
echo "== the DLL in a host, 20 games under Wine"
wine "$dir/dll_host.exe" "$dir/damka.dll" "$dir/damka.exe" 20
echo "== damka.exe through the protocol tests under Wine"
CK_RUN_SUITE=protocol DAMKA_BIN="wine $PWD/$dir/damka.exe" "$check"
