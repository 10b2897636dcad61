#!/bin/sh
# Perft speed against Fairy-Stockfish, in one session, alternating runs.
#
# Both count the last ply from the move list (bulk counting).  Each count
# is checked against the reference suite once; then each position is run
# RUNS times per program, in turn (A B A B ...), and the medians of the
# whole process's wall and CPU time (bench/lib.sh) are reported, with the
# ratios of the medians (leaves per second of CPU time, which swings less
# with the machine's load than wall time).  A second
# table compares xqkit -j 2 with -j 1 on the start position.
#
# Usage: bench/perft.sh [RUNS]   (default 3; needs /usr/games/fairy-stockfish:
#        apt-get install fairy-stockfish)
set -eu
runs=${1:-3}
xqkit=${XQKIT:-./xqkit}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
[ -x "$fsf" ] || { echo "needs $fsf (apt-get install fairy-stockfish)" >&2; exit 3; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-bench-perft.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
. bench/lib.sh
fsf_perft() { # fen depth: Fairy-Stockfish's count
	printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" |
		"$fsf" 2>/dev/null | sed -n 's/^Nodes searched: //p'
}
export fsf

# The middle-game rows are taken from the reference suite so counts can be checked.
suite=tests/data/perft.tsv
positions=$(awk -F'\t' '($1=="start"||$1=="cpw2"||$1=="pkb_b1"||$1=="pkb_w3") && $3==5 {print $1"|"$2"|"$3"|"$4}' "$suite")

printf '%-8s %5s %12s | %8s %8s %10s | %8s %8s %10s | %6s\n' position depth leaves "xqkit s" "CPU s" "M leaves/s" "FS s" "CPU s" "M leaves/s" "ratio"
echo "$positions" | while IFS='|' read -r id fen depth nodes; do
	got=$("$xqkit" perft --format ndjson --fen "$fen" "$depth" 2>/dev/null | sed 's/.*"nodes":\([0-9]*\).*/\1/')
	[ "$got" = "$nodes" ] || { echo "xqkit counted $got on $id, expected $nodes" >&2; exit 1; }
	got=$(fsf_perft "$fen" "$depth")
	[ "$got" = "$nodes" ] || { echo "fairy-stockfish counted $got on $id, expected $nodes" >&2; exit 1; }
	: > "$tmp/a"; : > "$tmp/b"
	i=0
	while [ $i -lt "$runs" ]; do
		measure "$tmp/a" "$xqkit" perft --fen "$fen" "$depth"
		measure "$tmp/b" sh -c 'printf "uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\nquit\n" "$1" "$2" | "$fsf"' sh "$fen" "$depth"
		i=$((i + 1))
	done
	set -- $(report "$tmp/a") $(report "$tmp/b")
	awk -v id="$id" -v d="$depth" -v n="$nodes" -v a="$1" -v ac="$2" -v b="$4" -v bc="$5" 'BEGIN {
		printf "%-8s %5s %12s | %8.3f %8.3f %10.1f | %8.3f %8.3f %10.1f | %6.2f\n", id, d, n, a, ac, n / ac / 1e6, b, bc, n / bc / 1e6, bc / ac }'
done
echo "(ratio: Fairy-Stockfish's CPU time over xqkit's; medians of $runs runs in turn)"

echo
echo "threads (start position, depth 6, medians of $runs runs in turn):"
: > "$tmp/a"; : > "$tmp/b"
i=0
while [ $i -lt "$runs" ]; do
	measure "$tmp/a" "$xqkit" perft -j 1 6
	measure "$tmp/b" "$xqkit" perft -j 2 6
	i=$((i + 1))
done
set -- $(report "$tmp/a") $(report "$tmp/b")
awk -v a="$1" -v ac="$2" -v b="$4" -v bc="$5" -v c="$(getconf _NPROCESSORS_ONLN)" 'BEGIN {
	printf "  -j 1: %.2f s wall (%.2f s CPU)   -j 2: %.2f s wall (%.2f s CPU)   speed-up %.2fx in wall time on %s cores\n", a, ac, b, bc, a / b, c }'
