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
# 3. With PEER=path/to/another/xqkit (the start of a branch, say): this
#    xqkit and the peer at their own default settings (no limit given),
#    -j 1, RUNS runs each alternating, medians of wall and CPU time per
#    position and the ratio of CPU times (the load-proof one).
# 4. With REF=file.ndjson (annotate -t ndjson of the same GAMES by a
#    reference engine, made by this xqkit: e.g. --engine
#    /usr/games/fairy-stockfish --nodes 1000000): how far the ?/?? marks
#    of this xqkit's default run agree with the reference's, move by move
#    over the moves both marked or left unmarked with their loss known:
#    precision (of the moves marked here, the share the reference marks
#    too) and recall (of the moves the reference marks, the share marked
#    here).
#
# Usage: [PEER=xqkit] [REF=ndjson] bench/annotate.sh [RUNS] [DEPTH] [NODES] [GAMES...]
#        (builds the driver with `make bench-tools`; BUILD=dir for another
#        build directory, FAIRY_STOCKFISH=path for another engine;
#        SKIP_ENGINES=1 runs only parts 3 and 4)
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

# 3 and 4 first: they are what a change of the engine is judged by.
if [ -n "${PEER:-}" ]; then
	n=$(positions_of "$xqkit" annotate "$@")
	echo "default settings, this xqkit against $PEER, $n positions (median of $runs runs, alternating)"
	: > "$tmp/new"; : > "$tmp/old"
	i=0
	while [ "$i" -lt "$runs" ]; do
		measure "$tmp/new" "$xqkit" annotate -q -j 1 "$@"
		measure "$tmp/old" "$PEER" annotate -q -j 1 "$@"
		i=$((i + 1))
	done
	peer_table() {
		set -- $(report "$tmp/new") $(report "$tmp/old")
		awk -v n="$n" -v w1="$1" -v c1="$2" -v w0="$4" -v c0="$5" 'BEGIN {
			printf "  %-10s %8.2f s wall %8.2f s CPU %8.1f ms CPU a position\n", "this", w1, c1, 1000 * c1 / n
			printf "  %-10s %8.2f s wall %8.2f s CPU %8.1f ms CPU a position\n", "peer", w0, c0, 1000 * c0 / n
			printf "  this / peer: %.2f (CPU), %.2f (wall)\n", c1 / c0, w1 / w0 }'
	}
	peer_table
	echo
fi
if [ -n "${REF:-}" ]; then
	"$xqkit" annotate -q -t ndjson -o "$tmp/marks.ndjson" --force "$@" || true
	# game<TAB>ply<TAB>1 when marked ? or ??, else 0; moves whose loss is known.
	marks() { sed -n '/"xqkit.eval\//{/"loss":/p}' "$1" |
		sed 's/.*"game":\([0-9]*\),"ply":\([0-9]*\).*/\1\t\2\t&/' |
		awk -F '\t' '{print $1 "\t" $2 "\t" ($3 ~ /"nag":"\?\??"/ ? 1 : 0)}' | sort; }
	marks "$tmp/marks.ndjson" | awk '{print $1 ":" $2 "\t" $3}' | sort > "$tmp/a"
	marks "$REF" | awk '{print $1 ":" $2 "\t" $3}' | sort > "$tmp/b"
	join -t "$(printf '\t')" "$tmp/a" "$tmp/b" > "$tmp/ab" || true
	awk -F '\t' '{n++; a += $2; b += $3; both += $2 && $3}
		END {printf "?/?? marks against %s: %d moves, %d marked here, %d by the reference, %d by both: precision %.1f%%, recall %.1f%%\n",
			ref, n, a, b, both, a ? 100 * both / a : 0, b ? 100 * both / b : 0}' ref="$REF" "$tmp/ab"
	echo
fi
[ -z "${SKIP_ENGINES:-}" ] || exit 0

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
