#!/bin/sh
# Speed of the built-in engine (lib/search.c), with Fairy-Stockfish as the
# peer in the same session.
#
# 1. Time to depth D (default 8) on each middle-game position of
#    tests/data/engine/middlegame.tsv (positions of the perft suite and of
#    real games), RUNS runs per position alternating with Fairy-Stockfish
#    searching the same position to the same depth (one thread, hash
#    cleared).  Times are the engines' own search times (process start-up
#    excluded); medians of each, and the ratio.  The goal is under 1 s for
#    the built-in engine in every position; a depth means different things
#    to different engines, so the peer column is a reference, not a target.
# 2. Positions per second at depth D over the whole set, one process,
#    median of RUNS.
#
# Usage: bench/search.sh [RUNS] [DEPTH]   (default 3 and 8; builds the
#        driver with `make bench-tools`; needs /usr/games/fairy-stockfish:
#        apt-get install fairy-stockfish)
set -eu
runs=${1:-3}
depth=${2:-8}
build=${BUILD:-build}
tool=$build/bench/xq-search
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
positions=tests/data/engine/middlegame.tsv
[ -x "$tool" ] || make -s bench-tools BUILD="$build" >/dev/null
[ -x "$fsf" ] || { echo "needs $fsf (apt-get install fairy-stockfish)" >&2; exit 3; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# The "ms N" field of a driver line.
ms_of() { sed -n 's/.* ms \([0-9]*\) .*/\1/p'; }

printf '%-12s | %10s %8s | %10s %8s | %6s | %s\n' position "built-in" "nodes" "FS" "nodes" "FS/xq" "goal < 1 s"
grep -v '^#' "$positions" | while IFS="$(printf '\t')" read -r id fen source; do
	: > "$tmp/a"; : > "$tmp/b"
	i=0
	while [ "$i" -lt "$runs" ]; do
		"$tool" go --depth "$depth" "$fen" > "$tmp/out.a"
		ms_of < "$tmp/out.a" >> "$tmp/a"
		"$tool" go --engine "$fsf" --depth "$depth" "$fen" > "$tmp/out.b"
		ms_of < "$tmp/out.b" >> "$tmp/b"
		i=$((i + 1))
	done
	a=$(median < "$tmp/a"); b=$(median < "$tmp/b")
	na=$(sed -n 's/.* nodes \([0-9]*\) .*/\1/p' "$tmp/out.a")
	nb=$(sed -n 's/.* nodes \([0-9]*\) .*/\1/p' "$tmp/out.b")
	awk -v id="$id" -v a="$a" -v b="$b" -v na="$na" -v nb="$nb" 'BEGIN {
		printf "%-12s | %7.0f ms %8d | %7.0f ms %8d | %6.2f | %s\n", id, a, na, b, nb,
			(a > 0 ? b / a : 0), (a < 1000 ? "yes" : "NO") }'
done

echo
: > "$tmp/pps"
i=0
while [ "$i" -lt "$runs" ]; do
	"$tool" bench --depth "$depth" "$positions" | sed -n 's/.*: \([0-9.]*\) positions\/s.*/\1/p' >> "$tmp/pps"
	i=$((i + 1))
done
n=$(grep -vc '^#' "$positions")
awk -v p="$(median < "$tmp/pps")" -v n="$n" -v d="$depth" -v r="$runs" 'BEGIN {
	printf "built-in: %.2f positions/s at depth %d over %d middle-game positions (median of %d)\n", p, d, n, r }'
