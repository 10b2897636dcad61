#!/bin/sh
# XQF reading speed: records per second over the whole shared XQF corpus
# read again and again, and over its largest file, in one session.
#
# There is no other XQF reader to race, so the peer is the trivially
# simple baseline every reader pays for: opening and reading the same
# files' bytes (build/bench/xqf_read -m load).  The XQF run (-m read) does
# that and decodes each file into a game, checking every move.  The two
# alternate (A B A B ...) RUNS times each; the table gives the medians of
# whole-process CPU time (user + system, bench/lib.sh: it swings less with
# load than wall time), the rates they imply (games, move records and
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

. bench/lib.sh

# bench NAME LIST ROUNDS
bench() {
	: > "$tmp/a"; : > "$tmp/b"
	out=$("$driver" -m read -n "$3" -l "$2")
	i=0
	while [ $i -lt "$runs" ]; do
		measure "$tmp/a" "$driver" -m load -n "$3" -l "$2"
		measure "$tmp/b" "$driver" -m read -n "$3" -l "$2"
		i=$((i + 1))
	done
	set -- "$1" $(report "$tmp/a") $(report "$tmp/b")
	echo "$out" | awk -v name="$1" -v a="$3" -v b="$6" '{
		files = $2; rounds = $4; games = $6; recs = $8; bytes = $10
		printf "%-8s %5d %6d %10d | %8.3f | %8.3f %10.0f %12.0f %8.1f | %5.1f\n",
			name, files, rounds, recs / rounds, a, b, games / b, recs / b,
			bytes / b / 1e6, b / a }'
}

printf '%-8s %5s %6s %10s | %8s | %8s %10s %12s %8s | %5s\n' set files rounds "records" \
	"base CPU" "XQF CPU" "games/s" "records/s" "MB/s" ratio
bench corpus "$tmp/all" "${CORPUS_ROUNDS:-50}"
bench largest "$tmp/largest" "${LARGEST_ROUNDS:-100}"
echo "largest: $largest"
echo "(records: move records per round; base: loading the bytes only; CPU: seconds of user + system time, medians of $runs runs in turn; ratio: XQF CPU / base CPU)"
