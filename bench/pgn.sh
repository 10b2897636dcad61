#!/bin/sh
# PGN reading speed against pgn-extract, in one session, alternating runs.
#
# xqkit side, two figures: `xqkit validate -q -j 1` itself (the command a
# user runs: every move checked legal, the result and the repetition rules
# judged), and build/bench/pgn_read, a driver that only reads and replays
# every game (each move checked legal as it is read), to show what reading
# costs alone.  The
# collection is the shared corpus's PGN files (tests/data/pgn/corpus-pgn.txt,
# less the broken ones in tests/data/pgn-broken.tsv), each converted to
# UTF-8 with iconv from the encoding MANIFEST.tsv gives it, concatenated and
# repeated up to SIZE MB.
#
# Peer: pgn-extract -s -o /dev/null (which parses and checks every move)
# reading a chess PGN file of the same size, built by repeating
# /usr/share/pgn-extract/eco.pgn.
#
# Each program runs RUNS times, in turn (A B C A B C ...); the medians of
# wall and CPU time of the whole process (bench/lib.sh) give MB/s, and the
# ratios of the medians are the speed-ups.
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
. bench/lib.sh
xqkit=${XQKIT:-./xqkit}
[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
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

: > "$tmp/a"; : > "$tmp/b"; : > "$tmp/v"
i=0
while [ $i -lt "$runs" ]; do
	measure "$tmp/v" "$xqkit" validate -q -j 1 "$tmp/xq.pgn"
	measure "$tmp/a" "$reader" "$tmp/xq.pgn"
	measure "$tmp/b" "$pe" -s -o /dev/null "$tmp/chess.pgn"
	i=$((i + 1))
done
set -- $(report "$tmp/v") $(report "$tmp/a") $(report "$tmp/b")
v=$1 vc=$2 vr=$3 a=$4 ac=$5 ra=$6 b=$7 bc=$8 rb=$9
: > "$tmp/a10"
measure "$tmp/a10" "$xqkit" validate -q -j 1 "$tmp/xq10.pgn"
set -- $(report "$tmp/a10")
ra10=$3
echo
echo "medians of $runs runs in turn, whole process (wall, CPU = user + system):"
awk -v v="$v" -v vc="$vc" -v a="$a" -v ac="$ac" -v b="$b" -v bc="$bc" -v xb="$xb" -v cb="$cb" \
	-v g="$games" -v p="$plies" 'BEGIN {
	printf "  xqkit validate -j 1  %7.3f s wall %7.3f s CPU  %7.2f MB/s (CPU)  %9.0f games/s  %10.0f plies/s\n", v, vc, xb / vc / 1e6, g / vc, p / vc
	printf "  reading driver       %7.3f s wall %7.3f s CPU  %7.2f MB/s (CPU)\n", a, ac, xb / ac / 1e6
	printf "  pgn-extract -s       %7.3f s wall %7.3f s CPU  %7.2f MB/s (CPU)\n", b, bc, cb / bc / 1e6
	printf "  xqkit validate against pgn-extract, MB/s: %.2fx in CPU time, %.2fx in wall time\n", (xb / vc) / (cb / bc), (xb / v) / (cb / b)
	printf "  reading driver against pgn-extract, MB/s: %.2fx in CPU time, %.2fx in wall time\n", (xb / ac) / (cb / bc), (xb / a) / (cb / b) }'
echo "peak RSS: xqkit validate ${vr} KiB at 1x, ${ra10} KiB at 10x; driver ${ra} KiB; pgn-extract ${rb} KiB"
