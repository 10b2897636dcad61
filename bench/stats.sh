#!/bin/sh
# `xqkit stats` on a big collection: `stats --by ecco` and `stats --tree
# --depth 10` on 1,000,000 games, time and peak memory, with `validate` on
# the same file as the yardstick (all three read and check every game;
# stats adds the classification, or the walk from the start, and its
# table).
#
# The collection is built as bench/scale.sh builds it: the shared corpus's
# UTF-8 PGN games, repeated with the Event tag
# of every copy made different.  So it holds about 2,300 distinct games:
# the table's rows and the tree's moves are those of the corpus, and the
# figures measure reading and adding up, not a tree of a million distinct
# openings (the tree's memory grows with its distinct moves, about 64
# bytes each with the index, never with the games).
#
# Each command runs RUNS times in turn with -j 1 (bench/lib.sh: medians
# of wall and CPU time, largest peak RSS), then once with -j 2.
#
# Usage: bench/stats.sh [RUNS] [GAMES]   (defaults 3 and 1000000; needs
#        ../shared or $XQ_SHARED; writes about 700 MB in $TMPDIR or
#        BENCH_DIR, removed at the end unless BENCH_DIR is set)
set -eu
runs=${1:-3}
games=${2:-1000000}
. bench/lib.sh
bench_corpus stats
# The UTF-8 PGN files of the corpus, repeated (bench/lib.sh).
corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
per=$(games_in "$work/one.pgn")
repeat_games "$games" "$work/one.pgn" "$per" "$work/big.pgn"
rm -f "$work/one.pgn"
n=$("$xqkit" stats -q --by Result --format ndjson "$work/big.pgn" 2> /dev/null | tail -1 |
	sed -n 's/.*"games":\([0-9]*\).*/\1/p')
echo "input: $n games, $(($(wc -c < "$work/big.pgn") / 1000000)) MB of PGN ($per distinct games repeated)"

: > "$work/v"; : > "$work/e"; : > "$work/t"
i=0
while [ $i -lt "$runs" ]; do
	measure "$work/v" "$xqkit" validate -q -j 1 "$work/big.pgn"
	measure "$work/e" "$xqkit" stats -q -j 1 --by ecco "$work/big.pgn"
	measure "$work/t" "$xqkit" stats -q -j 1 --tree --depth 10 "$work/big.pgn"
	i=$((i + 1))
done
: > "$work/e2"; : > "$work/t2"
measure "$work/e2" "$xqkit" stats -q -j 2 --by ecco "$work/big.pgn"
measure "$work/t2" "$xqkit" stats -q -j 2 --tree --depth 10 "$work/big.pgn"
"$xqkit" stats -q --tree --depth 10 --format ndjson "$work/big.pgn" 2> /dev/null | tail -1 |
	sed -n 's/.*"moves":\([0-9]*\).*/  the tree holds \1 distinct moves within 10 plies/p'

line() { # label file
	set -- "$1" $(report "$2")
	awk -v l="$1" -v w="$2" -v c="$3" -v r="$4" -v g="$n" 'BEGIN {
		printf "  %-32s %7.2f s wall %7.2f s CPU %6.2f us/game %8d KiB peak RSS\n", l, w, c, c / g * 1e6, r }'
}
echo "medians of $runs runs (-j 1), one run (-j 2):"
line "validate -j 1" "$work/v"
line "stats --by ecco -j 1" "$work/e"
line "stats --tree --depth 10 -j 1" "$work/t"
line "stats --by ecco -j 2" "$work/e2"
line "stats --tree --depth 10 -j 2" "$work/t2"
