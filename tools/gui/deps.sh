#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure the browser test can run: Debian's chromium and chromium-driver, and python3 (the
# test's driver speaks WebDriver with the standard library only). Installs them with apt-get
# when run as root, otherwise names them and fails.
chromium=${CHROMIUM:-/usr/bin/chromium}
driver=${CHROMEDRIVER:-/usr/bin/chromedriver}
have() { [ -x "$chromium" ] && [ -x "$driver" ] && command -v python3 >/dev/null 2>&1; }
have && exit 0
pkgs="chromium chromium-driver python3"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test-gui: installing $pkgs with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs && have &&
        exit 0
    echo "test-gui: apt-get could not install $pkgs" >&2
    exit 1
fi
echo "test-gui: missing; install the Debian packages $pkgs (sudo apt-get install $pkgs)" >&2
exit 1
