#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure the browser test can run: Debian's chromium and chromium-driver, and python3 (the
# test's driver speaks WebDriver with the standard library only); installs them as root.
chromium=${CHROMIUM:-/usr/bin/chromium}
driver=${CHROMEDRIVER:-/usr/bin/chromedriver}
exec sh "$(dirname "$0")/../apt_need.sh" test-gui \
    "[ -x '$chromium' ] && [ -x '$driver' ] && command -v python3" \
    chromium chromium-driver python3
