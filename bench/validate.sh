#!/bin/sh
# validate speed with one and with two threads, on a whole collection or on
# one big file.
#
# Runs `xqkit validate -r -q` over the input RUNS times for -j 1 and for
# -j 2, alternately (1 2 1 2 ...), and reports for each the medians of the
# whole process's wall and CPU time (bench/lib.sh), games per second and
# peak RSS, and the ratio of the wall medians.  The game count comes from the run's own NDJSON summary.  A
# collection of many files is read file by file on the threads; one big
# file is cut into chunks of games read on the threads.
#
# Usage: bench/validate.sh [RUNS] [DIR|FILE|big|many]
#   default: 5 runs over ../shared/corpus (or $XQ_SHARED/corpus)
#   big:     one PGN file of SIZE_MB megabytes (default 55) made of the
#            corpus's UTF-8 PGN files, repeated (kept in BENCH_DIR if set)
#   many:    a folder of thousands of small XQF files: the corpus's XQF
#            files, COPIES times (default 20) under other names
#   LOAD:    N busy loops run beside the timed runs (default 0), to see
#            -j 2 against -j 1 on a machine that other work keeps busy
#   COMMAND: another command over the same input, e.g.
#            COMMAND="convert -t ndjson" (its output is thrown away),
#            COMMAND=stats, or COMMAND="annotate --depth 1" with a FILE of
#            a little over 1 MiB (the size from which one file is cut into
#            chunks; annotating 55 MB takes long); its words come before
#            -r -q -j N
set -eu
runs=${1:-5}
dir=${2:-${XQ_SHARED:-../shared}/corpus}
xqkit=${XQKIT:-./xqkit}
command=${COMMAND:-validate}
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
. bench/lib.sh
if [ "$dir" = big ] || [ "$dir" = many ]; then
	corpus=${XQ_SHARED:-../shared}/corpus
	[ -d "$corpus" ] || { echo "no corpus at $corpus (set XQ_SHARED)" >&2; exit 3; }
	work=${BENCH_DIR:-$(mktemp -d)}
	mkdir -p "$work"
	[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
fi
if [ "$dir" = big ]; then
	dir=$work/big.pgn
	"$xqkit" validate -r -q --format ndjson "$corpus" 2>/dev/null |
		grep '"format":"pgn"' | grep '"encoding":"utf-8"' |
		sed 's/.*"file":"\([^"]*\)".*/\1/' | awk '!seen[$0]++' > "$work/utf8-files"
	while IFS= read -r f; do cat "$f"; echo; done < "$work/utf8-files" > "$work/one.pgn"
	: > "$dir"
	while [ "$(wc -c < "$dir")" -lt $((${SIZE_MB:-55} * 1000000)) ]; do
		cat "$work/one.pgn" >> "$dir"
	done
elif [ "$dir" = many ]; then
	dir=$work/many
	rm -rf "$dir"
	mkdir -p "$dir"
	"$xqkit" validate -r -q --format ndjson "$corpus" 2>/dev/null |
		grep '"format":"xqf"' | sed 's/.*"file":"\([^"]*\)".*/\1/' |
		awk '!seen[$0]++' > "$work/xqf-files"
	[ -s "$work/xqf-files" ] || { echo "no XQF file in $corpus" >&2; exit 3; }
	copies_of "$work/xqf-files" "$dir" "${COPIES:-20}"
fi
[ -e "$dir" ] || { echo "no input at $dir (give DIR or FILE, or set XQ_SHARED)" >&2; exit 3; }

summary=$("$xqkit" validate -r --format ndjson "$dir" | tail -1) || true
games=$(echo "$summary" | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
files=$(echo "$summary" | sed -n 's/.*"files":\([0-9]*\).*/\1/p')
plies=$(echo "$summary" | sed -n 's/.*"plies":\([0-9]*\).*/\1/p')
[ -n "$games" ] || { echo "validate printed no summary" >&2; exit 1; }
bytes=$(du -sb "$dir" | cut -f1)

t1=$(mktemp) t2=$(mktemp)
busy=
trap 'rm -f "$t1" "$t2"; [ -n "$busy" ] && kill $busy 2> /dev/null; [ -n "${work:-}" ] && [ -z "${BENCH_DIR:-}" ] && rm -rf "$work"; :' EXIT
k=0
while [ $k -lt "${LOAD:-0}" ]; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
	k=$((k + 1))
done
[ -z "$busy" ] || sleep 1
i=0
while [ $i -lt "$runs" ]; do
	measure "$t1" "$xqkit" $command -r -q -j 1 "$dir"
	measure "$t2" "$xqkit" $command -r -q -j 2 "$dir"
	i=$((i + 1))
done
loadavg=$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')
[ -z "$busy" ] || kill $busy 2> /dev/null
busy=
set -- $(report "$t1") $(report "$t2")
if [ -f "$dir" ]; then what="one file"; else what="collection"; fi
echo "$command, $what: $dir ($files files, $games games, $plies plies, $bytes bytes on disk)"
echo "  ${LOAD:-0} busy loops beside; load average after the runs: $loadavg"
awk -v a="$1" -v ac="$2" -v ar="$3" -v b="$4" -v bc="$5" -v br="$6" -v g="$games" -v r="$runs" \
	-v c="$(getconf _NPROCESSORS_ONLN)" 'BEGIN {
	if (a <= 0 || b <= 0) { print "  too short to time (0.01 s): give a bigger input"; exit }
	printf "  -j 1: %.3f s wall  %.3f s CPU  %8.0f games/s  %6d KiB peak   (medians of %d, alternating)\n", a, ac, g / a, ar, r
	printf "  -j 2: %.3f s wall  %.3f s CPU  %8.0f games/s  %6d KiB peak\n", b, bc, g / b, br
	printf "  speed-up %.2fx in wall time on %d cores; -j 2 spends %.2fx the CPU time of -j 1\n", a / b, c, bc / ac }'
