#!/bin/sh
# The cost of `convert --fix` set against a plain `convert` of the same big
# PGN file (and, with BASE=path/to/an/older/xqkit, against that one's plain
# convert, which made no check of results at all).
#
# The input is the shared corpus converted to one PGN file and repeated
# COPIES times.  Each program runs RUNS times in turn (A B C A B C ...),
# `-t pgn -q -j 1` to /dev/null; the medians of wall and processor time
# and the largest RSS are printed (bench/lib.sh), with the ratios.  The
# --fix run uses --rules asian, its most expensive form.
#
# Usage: bench/fix.sh [RUNS] [COPIES] [DIR|FILE]
#   default: 5 runs, 10 copies of ../shared/corpus (or $XQ_SHARED/corpus)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
copies=${2:-10}
src=${3:-${XQ_SHARED:-../shared}/corpus}
xqkit=${XQKIT:-./xqkit}
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
[ -e "$src" ] || { echo "no input at $src (give DIR or FILE, or set XQ_SHARED)" >&2; exit 3; }

bench_work fix
tmp=$work
rm -f "$tmp/one.pgn" "$tmp/big.pgn"
"$xqkit" convert -r -q -t pgn -o "$tmp/one.pgn" "$src" > /dev/null 2>&1 || true
[ -s "$tmp/one.pgn" ] || { echo "could not convert $src to PGN" >&2; exit 1; }
i=0
while [ $i -lt "$copies" ]; do
	cat "$tmp/one.pgn" >> "$tmp/big.pgn"
	i=$((i + 1))
done
games=$(grep -c '^\[Game ' "$tmp/big.pgn" || true)
i=0
while [ $i -lt "$runs" ]; do
	measure "$tmp/plain" "$xqkit" convert -q -j 1 -t pgn "$tmp/big.pgn"
	measure "$tmp/fix" "$xqkit" convert -q -j 1 -t pgn --fix --rules asian "$tmp/big.pgn"
	if [ -n "${BASE:-}" ]; then
		measure "$tmp/base" "$BASE" convert -q -j 1 -t pgn "$tmp/big.pgn"
	fi
	i=$((i + 1))
done
echo "input: $copies copies of $src as one PGN file ($games games, $(wc -c < "$tmp/big.pgn") bytes); median of $runs runs"
echo "                               wall s  cpu s  max RSS KiB"
set -- $(report "$tmp/plain"); pw=$1 pc=$2
printf '  convert -t pgn               %6s %6s %8s\n' "$1" "$2" "$3"
set -- $(report "$tmp/fix"); fw=$1 fc=$2
printf '  convert -t pgn --fix --rules %6s %6s %8s\n' "$1" "$2" "$3"
awk -v a="$pw" -v b="$fw" -v c="$pc" -v d="$fc" \
	'BEGIN { printf "  --fix / plain: %.2fx wall, %.2fx cpu\n", b / a, d / c }'
if [ -n "${BASE:-}" ]; then
	set -- $(report "$tmp/base")
	printf '  BASE convert -t pgn          %6s %6s %8s\n' "$1" "$2" "$3"
	awk -v a="$1" -v b="$pw" -v c="$2" -v d="$pc" \
		'BEGIN { printf "  plain / BASE plain (the check of results): %.2fx wall, %.2fx cpu\n", b / a, d / c }'
fi
