#!/bin/sh
# Perft speed against Fairy-Stockfish, in one session, alternating runs.
#
# Both count the last ply from the move list (bulk counting), so both
# figures are leaves per second of wall time for the whole process.  Each
# position is run RUNS times per program, alternately (A B A B ...), and
# the median of each is reported with the ratio of the medians.  A second
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
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# The middle-game rows are taken from the reference suite so counts can be checked.
suite=tests/data/perft.tsv
positions=$(awk -F'\t' '($1=="start"||$1=="cpw2"||$1=="pkb_b1"||$1=="pkb_w3") && $3==5 {print $1"|"$2"|"$3"|"$4}' "$suite")

printf '%-8s %5s %12s | %10s %10s | %10s %10s | %6s\n' position depth leaves "xqkit s" "M leaves/s" "FS s" "M leaves/s" ratio
echo "$positions" | while IFS='|' read -r id fen depth nodes; do
	: > "$tmp/a"; : > "$tmp/b"
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now); out=$("$xqkit" perft --json --fen "$fen" "$depth"); t1=$(now)
		got=$(echo "$out" | sed 's/.*"nodes":\([0-9]*\).*/\1/')
		[ "$got" = "$nodes" ] || { echo "xqkit counted $got on $id, expected $nodes" >&2; exit 1; }
		awk "BEGIN{print $t1 - $t0}" >> "$tmp/a"
		t0=$(now)
		got=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" |
			"$fsf" 2>/dev/null | sed -n 's/^Nodes searched: //p')
		t1=$(now)
		[ "$got" = "$nodes" ] || { echo "fairy-stockfish counted $got on $id, expected $nodes" >&2; exit 1; }
		awk "BEGIN{print $t1 - $t0}" >> "$tmp/b"
		i=$((i + 1))
	done
	a=$(median < "$tmp/a"); b=$(median < "$tmp/b")
	awk -v id="$id" -v d="$depth" -v n="$nodes" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-8s %5s %12s | %10.3f %10.1f | %10.3f %10.1f | %6.1f\n", id, d, n, a, n / a / 1e6, b, n / b / 1e6, b / a }'
done

echo
echo "threads (start position, depth 6, median of $runs):"
: > "$tmp/a"; : > "$tmp/b"
i=0
while [ $i -lt "$runs" ]; do
	t0=$(now); "$xqkit" perft -j 1 6 > /dev/null; t1=$(now); awk "BEGIN{print $t1 - $t0}" >> "$tmp/a"
	t0=$(now); "$xqkit" perft -j 2 6 > /dev/null; t1=$(now); awk "BEGIN{print $t1 - $t0}" >> "$tmp/b"
	i=$((i + 1))
done
a=$(median < "$tmp/a"); b=$(median < "$tmp/b")
awk -v a="$a" -v b="$b" -v c="$(getconf _NPROCESSORS_ONLN)" 'BEGIN {
	printf "  -j 1: %.2f s   -j 2: %.2f s   speed-up %.2fx on %s cores\n", a, b, a / b, c }'
