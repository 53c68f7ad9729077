#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs into a scratch DESTDIR and checks the installed programs as a user would run them:
# the binaries run, the man pages are there, and damka-match finds a shipped opening set by its
# bare name from another directory, and damka its opening book.
set -eu
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make -s install DESTDIR="$dest" PREFIX=/usr > /dev/null
bin="$dest/usr/bin"
for f in "$bin/damka" "$bin/damka-match" "$dest/usr/share/man/man6/damka.6" \
         "$dest/usr/share/man/man6/damka-match.6" "$dest/usr/share/damka/openings/3ply.txt" \
         "$dest/usr/share/damka/openings/4ply-balanced.txt"; do
    [ -e "$f" ] || { echo "install-check: $f is missing"; exit 1; }
done
"$bin/damka" --version | grep -q '^Damka ' || { echo "install-check: damka --version"; exit 1; }
out=$(cd / && "$bin/damka-match" -engine cmd="$bin/damka" name=a -engine cmd="$bin/damka" name=b \
      -each depth=2 -games 2 -openings file=3ply.txt 2>&1) || {
    echo "install-check: damka-match failed: $out"; exit 1; }
echo "$out" | grep -q '^Score of a vs b' || { echo "install-check: no score line: $out"; exit 1; }
# The shipped opening book, installed under share/damka/, is found with no option.
if [ -f book/damka.book ]; then
    out=$(printf 'position startpos\ngo wtime 60000 btime 60000\nquit\n' | (cd / && "$bin/damka"))
    echo "$out" | grep -q '^info string book move ' || {
        echo "install-check: the installed damka does not play from its book: $out"; exit 1; }
fi
echo "install-check: ok"
