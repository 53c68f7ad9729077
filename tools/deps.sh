#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure Check and pkg-config are present: installs them with apt-get when run as root on
# Debian, otherwise names the packages to install and fails.
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists check; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing check and pkg-config with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq check pkg-config \
        && pkg-config --exists check && exit 0
    echo "deps: apt-get could not install check and pkg-config" >&2
    exit 1
fi
echo "deps: missing Check; install the Debian packages 'check' and 'pkg-config'" \
     "(sudo apt-get install check pkg-config)" >&2
exit 1
