#!/bin/sh
# PGN reading speed against pgn-extract, in one session, alternating runs.
#
# xqkit side: build/bench/pgn_read reads a large xiangqi collection and
# replays every game (each move is checked legal as it is read).  The
# collection is the shared corpus's PGN files (tests/data/pgn/corpus-pgn.txt,
# less the broken ones in tests/data/pgn-broken.tsv), each converted to
# UTF-8 with iconv from the encoding MANIFEST.tsv gives it, concatenated and
# repeated up to SIZE MB.
#
# Peer: pgn-extract -s -o /dev/null (which parses and checks every move)
# reading a chess PGN file of the same size, built by repeating
# /usr/share/pgn-extract/eco.pgn.
#
# Each program runs RUNS times, alternately (A B A B ...); the median wall
# time of each gives MB/s, and the ratio of the medians is the speed-up.
# Peak resident memory (/usr/bin/time) is reported for both at 1x, and for
# xqkit at 10x the input, to show it does not grow with the input.
#
# Usage: bench/pgn.sh [RUNS] [SIZE_MB]   (defaults 5 and 20; needs
#        pgn-extract (apt-get install pgn-extract), iconv, /usr/bin/time,
#        make bench-tools, and ../shared or $XQ_SHARED; BENCH_DIR=DIR keeps
#        the files it builds in DIR)
set -eu
runs=${1:-5}
size_mb=${2:-20}
reader=${PGN_READ:-build/bench/pgn_read}
pe=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
eco=/usr/share/pgn-extract/eco.pgn
shared=${XQ_SHARED:-../shared}
corpus=$shared/corpus/pgn
[ -x "$reader" ] || { echo "build the driver first: make bench-tools" >&2; exit 3; }
[ -x "$pe" ] && [ -f "$eco" ] || { echo "needs pgn-extract (apt-get install pgn-extract)" >&2; exit 3; }
[ -f "$corpus/MANIFEST.tsv" ] || { echo "needs the shared corpus in $corpus (set XQ_SHARED)" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 3; }

# BENCH_DIR keeps the files built (xq.pgn, xq10.pgn, chess.pgn) for other tools.
if [ -n "${BENCH_DIR:-}" ]; then
	tmp=$BENCH_DIR
	mkdir -p "$tmp"
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-bench-pgn.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
fi
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
fsize() { wc -c < "$1" | tr -d ' '; }

# The collection, once: every readable PGN file of the corpus in UTF-8.
cut -f1 tests/data/pgn-broken.tsv | grep -v '^#' | grep -v '^path$' > "$tmp/broken" || true
tail -n +2 "$corpus/MANIFEST.tsv" | while IFS='	' read -r repo commit path size fmt enc rest; do
	f="$(echo "$repo" | sed 's|/|__|')/$path"
	grep -qxF "$f" tests/data/pgn/corpus-pgn.txt || continue
	grep -qxF "$f" "$tmp/broken" && continue
	case "$enc" in
	big5*) from=CP950 ;;
	gb*) from=GB18030 ;;
	*) from=UTF-8 ;;
	esac
	iconv -f "$from" -t UTF-8 "$corpus/$f" | sed '1s/^\xEF\xBB\xBF//'
	printf '\n\n'
done > "$tmp/one.pgn"
target=$((size_mb * 1000000))
: > "$tmp/xq.pgn"
while [ "$(fsize "$tmp/xq.pgn")" -lt "$target" ]; do cat "$tmp/one.pgn" >> "$tmp/xq.pgn"; done
: > "$tmp/chess.pgn"
while [ "$(fsize "$tmp/chess.pgn")" -lt "$(fsize "$tmp/xq.pgn")" ]; do cat "$eco" >> "$tmp/chess.pgn"; done
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$tmp/xq.pgn"; done > "$tmp/xq10.pgn"

xb=$(fsize "$tmp/xq.pgn")
cb=$(fsize "$tmp/chess.pgn")
counts=$("$reader" "$tmp/xq.pgn")
games=$(echo "$counts" | sed 's/.*games \([0-9]*\) .*/\1/')
plies=$(echo "$counts" | sed 's/.*plies \([0-9]*\) .*/\1/')
errors=$(echo "$counts" | sed 's/.* errors \([0-9]*\) .*/\1/')
[ "$errors" = 0 ] || { echo "the collection has $errors errors: $counts" >&2; exit 1; }
echo "xiangqi collection: $xb bytes, $games games, $plies plies (all replayed)"
echo "chess file:         $cb bytes ($eco repeated)"

: > "$tmp/a"; : > "$tmp/b"
i=0
while [ $i -lt "$runs" ]; do
	t0=$(now); "$reader" "$tmp/xq.pgn" > /dev/null; t1=$(now)
	awk "BEGIN{print $t1 - $t0}" >> "$tmp/a"
	t0=$(now); "$pe" -s -o /dev/null "$tmp/chess.pgn" 2> /dev/null; t1=$(now)
	awk "BEGIN{print $t1 - $t0}" >> "$tmp/b"
	i=$((i + 1))
done
a=$(median < "$tmp/a"); b=$(median < "$tmp/b")
rss() { /usr/bin/time -o "$tmp/rss" -f %M "$@" > /dev/null 2>&1; cat "$tmp/rss"; }
ra=$(rss "$reader" "$tmp/xq.pgn")
ra10=$(rss "$reader" "$tmp/xq10.pgn")
rb=$(rss "$pe" -s -o /dev/null "$tmp/chess.pgn")
echo
echo "median of $runs alternating runs, wall time:"
awk -v a="$a" -v b="$b" -v xb="$xb" -v cb="$cb" -v g="$games" -v p="$plies" 'BEGIN {
	printf "  xqkit pgn reader   %7.3f s  %8.2f MB/s  %9.0f games/s  %10.0f plies/s\n", a, xb / a / 1e6, g / a, p / a
	printf "  pgn-extract        %7.3f s  %8.2f MB/s\n", b, cb / b / 1e6
	printf "  speed-up in MB/s   %.2fx (bar 1x, goal 3x)\n", (xb / a) / (cb / b) }'
echo "peak RSS: xqkit ${ra} KiB at 1x, ${ra10} KiB at 10x; pgn-extract ${rb} KiB at 1x"
