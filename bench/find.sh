#!/bin/sh
# find --fen against validate on the same input: the cost of a position
# search (goal: at most 1.3x validate's time).
#
# Two inputs: one big PGN file (the corpus's UTF-8 PGN files joined and
# repeated to SIZE_MB megabytes, default 20) and a folder of many XQF
# files (the corpus's XQF files copied COPIES times, default 40).  On
# each, `xqkit validate -q -j 1` and `xqkit find -q -j 1 --count --fen
# FEN` run RUNS times in turn (A B A B ..., bench/lib.sh); the medians of
# wall and CPU time, the peak RSS and the ratios find/validate are
# reported.  FEN is the position after 炮二平五 马８进７ (red to move),
# which many games reach, given with --mirror so that each ply is compared
# with two keys.
#
# Usage: bench/find.sh [RUNS]   (default 5; needs ../shared or $XQ_SHARED;
#        writes about SIZE_MB + 70 MB in $TMPDIR or BENCH_DIR, removed at
#        the end unless BENCH_DIR is set)
set -eu
runs=${1:-5}
. bench/lib.sh
bench_corpus find
fen='rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w'

# The big PGN file.
corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
: > "$work/big.pgn"
while [ "$(wc -c < "$work/big.pgn")" -lt $((${SIZE_MB:-20} * 1000000)) ]; do
	cat "$work/one.pgn" >> "$work/big.pgn"
done

# The folder of XQF files.
mkdir -p "$work/xqf"
find "$corpus" -type f \( -name '*.xqf' -o -name '*.XQF' \) | sort > "$work/xqf-files"
copies_of "$work/xqf-files" "$work/xqf" "${COPIES:-40}"

# bench NAME INPUT
bench() {
	summary=$("$xqkit" find -r --count --format ndjson --mirror --fen "$fen" "$2" | tail -1) || true
	games=$(echo "$summary" | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
	found=$(echo "$summary" | sed -n 's/.*"found":\([0-9]*\).*/\1/p')
	: > "$work/a"; : > "$work/b"
	i=0
	while [ $i -lt "$runs" ]; do
		measure "$work/a" "$xqkit" validate -r -q -j 1 "$2"
		measure "$work/b" "$xqkit" find -r -q -j 1 --count --mirror --fen "$fen" "$2"
		i=$((i + 1))
	done
	set -- "$1" $(report "$work/a") $(report "$work/b")
	awk -v name="$1" -v g="$games" -v f="$found" -v a="$2" -v ac="$3" -v ar="$4" \
		-v b="$5" -v bc="$6" -v br="$7" -v r="$runs" 'BEGIN {
		printf "%s: %d games, %d found\n", name, g, f
		printf "  validate: %.3f s wall  %.3f s CPU  %6d KiB peak   (medians of %d, alternating)\n", a, ac, ar, r
		printf "  find:     %.3f s wall  %.3f s CPU  %6d KiB peak\n", b, bc, br
		if (a > 0 && ac > 0)
			printf "  find / validate: %.2fx wall, %.2fx CPU\n", b / a, bc / ac }'
}
bench "one PGN file of $(wc -c < "$work/big.pgn") bytes" "$work/big.pgn"
bench "$(ls "$work/xqf" | wc -l) XQF files" "$work/xqf"
