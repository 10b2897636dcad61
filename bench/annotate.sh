#!/bin/sh
# Speed of `xqkit annotate`: positions analysed per second on real games.
#
# 1. The built-in engine at depth D (default 6) on GAMES (default
#    samples/liu-dahua-iccs.pgn: six master games, 469 positions):
#    annotate -j 1 and -j 2, and as the peer the bare search of the same
#    positions by the same engine (build/bench/xq-search bench: no files,
#    no history, nothing written).  RUNS runs of each (default 3),
#    alternating; medians of wall and CPU time (bench/lib.sh); positions per second; the ratios
#    -j 2 / -j 1 (the goal on two cores: close to 2) and annotate -j 1 /
#    bare search (the cost of everything around the search: close to 1).
# 2. Fairy-Stockfish at N nodes (default 20000, one thread, hash cleared
#    for every position): annotate -j 1 and -j 2 alternating, medians,
#    positions per second and the ratio (skipped with a message when it is
#    not installed: apt-get install fairy-stockfish).
#
# Usage: bench/annotate.sh [RUNS] [DEPTH] [NODES] [GAMES...]
#        (builds the driver with `make bench-tools`; BUILD=dir for another
#        build directory, FAIRY_STOCKFISH=path for another engine)
set -eu
runs=${1:-3}
depth=${2:-6}
nodes=${3:-20000}
[ $# -ge 3 ] && shift 3 || shift $#
[ $# -gt 0 ] || set -- samples/liu-dahua-iccs.pgn
build=${BUILD:-build}
xqkit=$build/xqkit
tool=$build/bench/xq-search
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
[ -x "$xqkit" ] || make -s BUILD="$build" >/dev/null
[ -x "$tool" ] || make -s bench-tools BUILD="$build" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. bench/lib.sh
# Positions annotate analysed, from its NDJSON summary.
positions_of() {
	"$@" --format ndjson -q -o "$tmp/count.out" --force | sed -n 's/.*"positions":\([0-9]*\).*/\1/p' | tail -1
}

# The positions of the games, for the bare search: id<TAB>fen.
"$xqkit" replay --output-format ndjson "$@" 2>/dev/null |
	sed -n 's/.*"game":\([0-9]*\),"ply":\([0-9]*\).*"fen":"\([^"]*\)".*/g\1p\2\t\3/p' > "$tmp/positions.tsv"
npos=$(wc -l < "$tmp/positions.tsv")

n=$(positions_of "$xqkit" annotate --depth "$depth" "$@")
echo "built-in engine, depth $depth, $n positions of $(printf '%s ' "$@")(median of $runs runs)"
: > "$tmp/j1"; : > "$tmp/j2"; : > "$tmp/bare"
i=0
while [ "$i" -lt "$runs" ]; do
	measure "$tmp/j1" "$xqkit" annotate -q --depth "$depth" -j 1 "$@"
	measure "$tmp/j2" "$xqkit" annotate -q --depth "$depth" -j 2 "$@"
	measure "$tmp/bare" "$tool" bench --depth "$depth" "$tmp/positions.tsv"
	i=$((i + 1))
done
# In a function, so that set -- leaves the script's GAMES alone.
builtin_table() {
	set -- $(report "$tmp/j1") $(report "$tmp/j2") $(report "$tmp/bare")
	awk -v n="$n" -v np="$npos" -v j1="$1" -v c1="$2" -v j2="$4" -v c2="$5" -v b="$7" -v cb="$8" 'BEGIN {
		printf "  %-24s %7.2f s wall %7.2f s CPU %9.1f positions/s (wall)\n", "annotate -j 1", j1, c1, n / j1
		printf "  %-24s %7.2f s wall %7.2f s CPU %9.1f positions/s (wall)  -j 2 / -j 1 speed: %.2f\n", "annotate -j 2", j2, c2, n / j2, j1 / j2
		printf "  %-24s %7.2f s wall %7.2f s CPU %9.1f positions/s (CPU)   annotate -j 1 / bare, CPU: %.2f\n", "bare search (xq-search)", b, cb, np / cb, (n / c1) / (np / cb) }'
}
builtin_table

echo
if [ ! -x "$fsf" ]; then
	echo "Fairy-Stockfish: skipped ($fsf not found; apt-get install fairy-stockfish)"
	exit 0
fi
n=$(positions_of "$xqkit" annotate --engine "$fsf" --nodes "$nodes" "$@")
echo "Fairy-Stockfish ($fsf), $nodes nodes, $n positions (median of $runs runs)"
: > "$tmp/f1"; : > "$tmp/f2"
i=0
while [ "$i" -lt "$runs" ]; do
	measure "$tmp/f1" "$xqkit" annotate -q --engine "$fsf" --nodes "$nodes" -j 1 "$@"
	measure "$tmp/f2" "$xqkit" annotate -q --engine "$fsf" --nodes "$nodes" -j 2 "$@"
	i=$((i + 1))
done
fsf_table() {
	set -- $(report "$tmp/f1") $(report "$tmp/f2")
	awk -v n="$n" -v j1="$1" -v c1="$2" -v j2="$4" -v c2="$5" 'BEGIN {
		printf "  %-24s %7.2f s wall %7.2f s CPU %9.1f positions/s (wall)\n", "annotate -j 1", j1, c1, n / j1
		printf "  %-24s %7.2f s wall %7.2f s CPU %9.1f positions/s (wall)  -j 2 / -j 1 speed: %.2f\n", "annotate -j 2", j2, c2, n / j2, j1 / j2 }'
}
fsf_table
