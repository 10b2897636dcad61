#!/bin/sh
# tests/browser.sh XQKIT: xqkit's HTML pages work in a real browser.
# tests/browser/test_html.py writes pages with `xqkit convert -t html` and
# drives headless Chromium over its DevTools pipe (no network, a fresh
# profile), pressing keys, clicking, reading the DOM and the pixels of
# screenshots, with JavaScript on and off; see that file for the cases.
#
# Needs python3 (standard library only) and Chromium (Debian: chromium),
# found the one documented way: `chromium` on $PATH, else /usr/bin/chromium.
# Skips without them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
XQKIT=${1:-${XQKIT:-}}
name=html_pages_work_in_a_real_browser

command -v python3 > /dev/null 2>&1 || skip "$name" "python3 not found"
chromium=$(command -v chromium 2> /dev/null || true)
[ -n "$chromium" ] || { [ -x /usr/bin/chromium ] && chromium=/usr/bin/chromium; } || true
[ -n "$chromium" ] || skip "$name" "chromium not found"
case $XQKIT in /*) ;; *) XQKIT=$(pwd)/$XQKIT ;; esac

T=$(test_tmpdir browser)
trap 'rm -rf "$T"' EXIT
python3 "$here/browser/test_html.py" "$XQKIT" "$chromium" "$T"
