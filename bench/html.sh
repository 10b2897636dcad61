#!/bin/sh
# What xqkit's HTML pages cost a browser: the size and opening time of a
# 10,000-game collection page (script on and off) against its PGN opened
# as text, and the time from a key press to the next ply shown in a
# 1,000-ply game with deep variations.  bench/html.py says how each figure
# is measured.  Needs python3 and Chromium (Debian: chromium).
#
# Usage: bench/html.sh [RUNS] [NDJSON]
#   default: 5 runs; the games of ../shared/corpus/pgn (or
#   $XQ_SHARED/corpus/pgn) converted to NDJSON, else samples/.
set -eu
runs=${1:-5}
xqkit=${XQKIT:-./xqkit}
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
chromium=$(command -v chromium 2> /dev/null || true)
[ -n "$chromium" ] || { [ -x /usr/bin/chromium ] && chromium=/usr/bin/chromium; } || true
[ -n "$chromium" ] || { echo "chromium not found (apt-get install chromium)" >&2; exit 3; }
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-bench-html.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
games=${2:-}
if [ -z "$games" ]; then
	corpus=${XQ_SHARED:-../shared}/corpus/pgn
	[ -d "$corpus" ] || corpus=samples
	games=$tmp/games.ndjson
	"$xqkit" convert -q -t ndjson -r -o "$games" "$corpus" 2> /dev/null || true
fi
python3 "$(dirname "$0")/html.py" "$xqkit" "$chromium" "$tmp" "$runs" "$games"
