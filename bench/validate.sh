#!/bin/sh
# validate speed on a whole collection, with one and with two threads.
#
# Runs `xqkit validate -r -q` over the collection RUNS times for -j 1 and
# for -j 2, alternately (1 2 1 2 ...), and reports for each the median
# wall time of the whole process and games per second, and the ratio of
# the medians.  The game count comes from the run's own NDJSON summary.
#
# Usage: bench/validate.sh [RUNS] [DIR]   (default 5 runs over ../shared/corpus,
#        or $XQ_SHARED/corpus)
set -eu
runs=${1:-5}
dir=${2:-${XQ_SHARED:-../shared}/corpus}
xqkit=${XQKIT:-./xqkit}
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
[ -d "$dir" ] || { echo "no collection at $dir (give DIR, or set XQ_SHARED)" >&2; exit 3; }

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

summary=$("$xqkit" validate -r --format ndjson "$dir" | tail -1) || true
games=$(echo "$summary" | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
files=$(echo "$summary" | sed -n 's/.*"files":\([0-9]*\).*/\1/p')
plies=$(echo "$summary" | sed -n 's/.*"plies":\([0-9]*\).*/\1/p')
[ -n "$games" ] || { echo "validate printed no summary" >&2; exit 1; }
bytes=$(du -sb "$dir" | cut -f1)

t1=$(mktemp) t2=$(mktemp)
trap 'rm -f "$t1" "$t2"' EXIT
i=0
while [ $i -lt "$runs" ]; do
	for j in 1 2; do
		s=$(now)
		"$xqkit" validate -r -q -j $j "$dir" > /dev/null 2>&1 || true
		e=$(now)
		if [ $j = 1 ]; then awk "BEGIN{print $e - $s}" >> "$t1"; else awk "BEGIN{print $e - $s}" >> "$t2"; fi
	done
	i=$((i + 1))
done
a=$(median < "$t1"); b=$(median < "$t2")
echo "collection: $dir ($files files, $games games, $plies plies, $bytes bytes on disk)"
awk -v a="$a" -v b="$b" -v g="$games" -v r="$runs" -v c="$(getconf _NPROCESSORS_ONLN)" 'BEGIN {
	printf "  -j 1: %.3f s  %8.0f games/s   (median of %d)\n", a, g / a, r
	printf "  -j 2: %.3f s  %8.0f games/s   (median of %d)\n", b, g / b, r
	printf "  speed-up %.2fx on %d cores\n", a / b, c }'
