#!/bin/sh
# XQF reading speed: records per second over the whole shared XQF corpus
# read again and again, and over its largest file, in one session.
#
# There is no other XQF reader to race, so the peer is the trivially
# simple baseline every reader pays for: opening and reading the same
# files' bytes (build/bench/xqf_read -m load).  The XQF run (-m read) does
# that and decodes each file into a game, checking every move.  The two
# alternate (A B A B ...) RUNS times each; the table gives the medians of
# whole-process wall time, the rates they imply (games, move records and
# megabytes per second of the decoding run) and the ratio XQF/baseline.
#
# Usage: bench/xqf.sh [RUNS]   (default 5; needs `make bench-tools` and the
#        shared corpus in ../shared or $XQ_SHARED)
set -eu
runs=${1:-5}
driver=${XQF_READ:-build/bench/xqf_read}
corpus=${XQ_SHARED:-../shared}/corpus/xqf
[ -x "$driver" ] || { echo "build the driver first (make bench-tools)" >&2; exit 3; }
[ -d "$corpus" ] || { echo "no XQF corpus at $corpus (set XQ_SHARED)" >&2; exit 3; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$corpus" -type f \( -name '*.xqf' -o -name '*.XQF' \) | sort > "$tmp/all"
# The largest file by size is also the one with the most nodes.
largest=$(while IFS= read -r f; do printf '%s\t%s\n' "$(wc -c < "$f")" "$f"; done < "$tmp/all" |
	sort -n | tail -1 | cut -f2)
printf '%s\n' "$largest" > "$tmp/largest"

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# bench NAME LIST ROUNDS
bench() {
	: > "$tmp/a"; : > "$tmp/b"
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now); "$driver" -m load -n "$3" -l "$2" > /dev/null; t1=$(now)
		awk "BEGIN{print $t1 - $t0}" >> "$tmp/a"
		t0=$(now); out=$("$driver" -m read -n "$3" -l "$2"); t1=$(now)
		awk "BEGIN{print $t1 - $t0}" >> "$tmp/b"
		i=$((i + 1))
	done
	a=$(median < "$tmp/a"); b=$(median < "$tmp/b")
	echo "$out" | awk -v name="$1" -v a="$a" -v b="$b" '{
		files = $2; rounds = $4; games = $6; recs = $8; bytes = $10
		printf "%-8s %5d %6d %10d | %8.3f | %8.3f %10.0f %12.0f %8.1f | %5.1f\n",
			name, files, rounds, recs / rounds, a, b, games / b, recs / b,
			bytes / b / 1e6, b / a }'
}

printf '%-8s %5s %6s %10s | %8s | %8s %10s %12s %8s | %5s\n' set files rounds "records" \
	"base s" "XQF s" "games/s" "records/s" "MB/s" ratio
bench corpus "$tmp/all" "${CORPUS_ROUNDS:-50}"
bench largest "$tmp/largest" "${LARGEST_ROUNDS:-100}"
echo "largest: $largest"
echo "(records: move records per round; base: loading the bytes only; ratio: XQF s / base s)"
