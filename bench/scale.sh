#!/bin/sh
# Scaling with the size of a collection: validate and convert of 100,000
# and of 1,000,000 games, one PGN file each, in one session.
#
# The games are the shared corpus's UTF-8 PGN games, repeated with the
# Event tag of every copy made different ("... #k"), so that no two games
# of the collection are the same record.  For each size, `xqkit validate
# -q -j J` and `xqkit convert -t ndjson -j J` (J from JOBS, default 1; to a
# file in the bench's own
# folder) run RUNS times in turn; the medians of wall and CPU time and the
# largest peak RSS are reported (bench/lib.sh), with the CPU time per game
# and the ratio 1M / 100k (linear: 10; flat memory: RSS the same).
#
# Usage: [JOBS=J] bench/scale.sh [RUNS] [SMALL] [LARGE]   (defaults 3, 100000,
#        1000000; needs ../shared or $XQ_SHARED; writes about 1.5 GB in
#        $TMPDIR or BENCH_DIR, removed at the end unless BENCH_DIR is set)
set -eu
runs=${1:-3}
jobs=${JOBS:-1}
small=${2:-100000}
large=${3:-1000000}
. bench/lib.sh
bench_corpus scale

# The UTF-8 PGN files of the corpus that read without an error.
corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
per=$(games_in "$work/one.pgn")

# make N FILE: N games, copies of the collection (bench/lib.sh).
make_collection() { repeat_games "$1" "$work/one.pgn" "$per" "$2"; }

row() { # label games file
	: > "$work/v"; : > "$work/c"
	i=0
	while [ $i -lt "$runs" ]; do
		measure "$work/v" "$xqkit" validate -q -j "$jobs" "$3"
		measure "$work/c" "$xqkit" convert -q -t ndjson -j "$jobs" --force -o "$work/out.ndjson" "$3"
		i=$((i + 1))
	done
	rm -f "$work/out.ndjson"
	set -- "$1" "$2" "$(wc -c < "$3")" $(report "$work/v") $(report "$work/c")
	awk -v l="$1" -v g="$2" -v b="$3" -v v="$4" -v vc="$5" -v vr="$6" -v c="$7" -v cc="$8" -v cr="$9" 'BEGIN {
		printf "%-6s %8d games %6.0f MB | validate %7.2f s wall %7.2f s CPU %6.2f us/game %7d KiB | convert %7.2f s wall %7.2f s CPU %6.2f us/game %7d KiB\n",
			l, g, b / 1e6, v, vc, vc / g * 1e6, vr, c, cc, cc / g * 1e6, cr }' | tee -a "$work/rows"
}

: > "$work/rows"
make_collection "$small" "$work/small.pgn"
n=$("$xqkit" validate -q --format ndjson "$work/small.pgn" 2> /dev/null | tail -1 | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
row small "$n" "$work/small.pgn"
rm -f "$work/small.pgn"
make_collection "$large" "$work/large.pgn"
n=$("$xqkit" validate -q --format ndjson "$work/large.pgn" 2> /dev/null | tail -1 | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
row large "$n" "$work/large.pgn"
rm -f "$work/large.pgn"
awk '{ g[NR] = $2; for (i = 1; i <= NF; i++) if ($i == "CPU") c[NR, ++k[NR]] = $(i - 2)
	for (i = 1; i <= NF; i++) if ($i == "KiB") r[NR, ++m[NR]] = $(i - 1) }
	END { printf "large / small: %.1fx the games; CPU time validate %.2fx, convert %.2fx; peak RSS validate %.2fx, convert %.2fx (-j %s, medians of %s runs in turn)\n",
		g[2] / g[1], c[2, 1] / c[1, 1], c[2, 2] / c[1, 2], r[2, 1] / r[1, 1], r[2, 2] / r[1, 2], jobs, runs }' jobs="$jobs" runs="$runs" "$work/rows"
