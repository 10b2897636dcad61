#!/bin/sh
# The cost of classifying openings (lib/ecco) set against `xqkit validate`
# on the same records.  Goal: classification under 5% of validate's time.
#
# Runs `xqkit validate -r -q -j 1` over the input RUNS times and takes the
# median processor time (user + system) of the process; runs the driver
# bench/ecco.c (make bench-tools) RUNS times, alternately, and takes the
# median of its per-round figure: the processor time of classifying every
# game's opening once (each run itself the median of 11 rounds).  Prints
# both, the cost per game and the ratio.  Processor time rather than wall
# time, so that other work on a shared machine weighs less.
#
# Usage: bench/ecco.sh [RUNS] [DIR|FILE]
#   default: 5 runs over ../shared/corpus (or $XQ_SHARED/corpus)
set -eu
runs=${1:-5}
dir=${2:-${XQ_SHARED:-../shared}/corpus}
xqkit=${XQKIT:-./xqkit}
build=${BUILD:-build}
driver=$build/bench/ecco
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
[ -x "$driver" ] || { echo "build the driver first (make bench-tools)" >&2; exit 3; }
[ -e "$dir" ] || { echo "no input at $dir (give DIR or FILE, or set XQ_SHARED)" >&2; exit 3; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# Seconds from the `times` builtin's "0m1.234s" form.
secs() { echo "$1" | awk '{ split($0, p, "m"); sub("s", "", p[2]); print p[1] * 60 + p[2] }'; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-bench-ecco.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tv=$tmp/validate tc=$tmp/classify last=$tmp/last
i=0
while [ $i -lt "$runs" ]; do
	# The child's user and system time, from `times` in a subshell.
	t=$( ("$xqkit" validate -r -q -j 1 "$dir" > /dev/null 2>&1 || true; times) | tail -1)
	set -- $t
	awk -v u="$(secs "$1")" -v s="$(secs "$2")" 'BEGIN { print u + s }' >> "$tv"
	"$driver" "$dir" > "$last" 2>/dev/null || true
	sed -n 's/.* classify_s \([0-9.]*\) .*/\1/p' "$last" >> "$tc"
	i=$((i + 1))
done
v=$(median < "$tv"); c=$(median < "$tc")
games=$(sed -n 's/.* games \([0-9]*\) .*/\1/p' "$last")
[ -n "$games" ] || { echo "the driver printed nothing" >&2; exit 1; }
echo "input: $dir ($games games; median of $runs runs)"
sed 's/^/  driver: /' "$last"
awk -v v="$v" -v c="$c" -v g="$games" 'BEGIN {
	printf "  xqkit validate -j 1: %.3f s processor time\n", v
	printf "  classification:      %.4f s  %.0f ns a game\n", c, c / g * 1e9
	printf "  classification / validate: %.2f%% (goal: under 5%%)\n", 100 * c / v }'
