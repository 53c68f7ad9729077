#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure clang with libFuzzer is present: installs Debian's clang and libclang-rt-14-dev
# with apt-get when run as root, otherwise names them.
probe=$(mktemp -d)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
    > "$probe/f.c"
if clang -fsanitize=fuzzer "$probe/f.c" -o "$probe/f" >/dev/null 2>&1; then
    rm -rf "$probe"
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "fuzz: installing clang and libclang-rt-14-dev with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang \
        libclang-rt-14-dev && clang -fsanitize=fuzzer "$probe/f.c" -o "$probe/f" && \
        rm -rf "$probe" && exit 0
fi
rm -rf "$probe"
echo "fuzz: libFuzzer missing; install the Debian packages clang and libclang-rt-14-dev" >&2
exit 1
