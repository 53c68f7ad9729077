#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: apt_need.sh WHO "CHECK" PACKAGE...: runs CHECK (a shell command); when it fails,
# installs the Debian packages with apt-get if run as root, else names them and fails.
who=$1 check=$2
shift 2
sh -c "$check" >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$who: installing $* with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" &&
        sh -c "$check" >/dev/null 2>&1 && exit 0
    echo "$who: apt-get could not install $*" >&2
    exit 1
fi
echo "$who: missing; install the Debian packages $* (sudo apt-get install $*)" >&2
exit 1
