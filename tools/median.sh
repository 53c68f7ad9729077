#!/bin/sh
# SPDX-License-Identifier: MIT
# Median of the numbers on standard input, one per line (blank lines ignored): the middle one,
# or the mean of the two middle ones. Used by the measuring scripts in tools/.
grep . | sort -n | awk '{ a[NR] = $1 } END {
    if (NR) print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
