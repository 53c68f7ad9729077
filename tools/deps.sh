#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure what the test suite needs is present: Check, pkg-config, and libmicrohttpd (the
# GUI server's HTTP library); installs them as root (tools/apt_need.sh).
exec sh "$(dirname "$0")/apt_need.sh" deps \
    "command -v pkg-config && pkg-config --exists check libmicrohttpd" \
    check pkg-config libmicrohttpd-dev
