#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure what the test suite needs is present: Check, pkg-config, and libmicrohttpd (the
# GUI server's HTTP library). Installs them with apt-get when run as root on Debian, otherwise
# names the packages to install and fails.
have() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists check libmicrohttpd; }
have && exit 0
pkgs="check pkg-config libmicrohttpd-dev"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing $pkgs with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs && have &&
        exit 0
    echo "deps: apt-get could not install $pkgs" >&2
    exit 1
fi
echo "deps: missing packages; install the Debian packages $pkgs (sudo apt-get install $pkgs)" >&2
exit 1
