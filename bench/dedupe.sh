#!/bin/sh
# dedupe on a big collection: time and peak memory (goal: under 200 MB for
# 1,000,000 games, linear time).
#
# The collection is the shared corpus's UTF-8 PGN games that start from
# the standard position, written once as ICCS PGN (xqkit convert), then
# repeated to GAMES games (default 1,000,000), each copy changed one of
# three ways in turn: the same game with " #k" after its Event (a true
# duplicate), its left-right mirror (files a..i read as i..a), or its main
# line without its last move (a prefix of the original).  Then, RUNS
# times each (default 1), alternating: `xqkit dedupe -q -j 1` (one pass,
# the groups reported), with `--mirror --prefix` (two passes), and
# `validate -q -j 1` on the same file for scale; the medians of wall and
# CPU time and the largest peak RSS (bench/lib.sh), and the groups found.
#
# Usage: bench/dedupe.sh [RUNS] [GAMES]   (needs ../shared or $XQ_SHARED;
#        writes about 0.5 GB per million games in $TMPDIR or BENCH_DIR,
#        removed at the end unless BENCH_DIR is set)
set -eu
runs=${1:-1}
games=${2:-1000000}
. bench/lib.sh
bench_corpus dedupe

corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
"$xqkit" find -q --tag 'FEN!~.' -t pgn --notation iccs -o "$work/iccs.pgn" "$work/one.pgn" 2> /dev/null || true

# One game per record, joined on one line each: tags, then the moves.
# (xqkit writes a blank line between the tags and the moves).
awk 'BEGIN { RS = ""; FS = "\n" } {
	if ($1 ~ /^\[/) {
		tags = ""
		for (i = 1; i <= NF; i++) tags = tags $i "\t"
		next
	}
	moves = ""
	for (i = 1; i <= NF; i++) moves = moves " " $i
	print tags "|" moves
	tags = ""
}' "$work/iccs.pgn" > "$work/records"
per=$(wc -l < "$work/records")
[ "$per" -gt 0 ] || { echo "no games to repeat" >&2; exit 1; }

awk -v n="$games" -v per="$per" -v src="$work/records" 'BEGIN {
	for (k = 1; written < n; k++) {
		while (written < n && (getline line < src) > 0) {
			split(line, part, "|")
			tags = part[1]; moves = part[2]
			kind = written % 3
			gsub(/\[Event "/, "[Event \"#" k " ", tags)
			if (kind == 1) {
				# mirror every move (tags have no coordinates)
				out = ""
				nw = split(moves, w, " ")
				for (i = 1; i <= nw; i++) {
					if (w[i] ~ /^[a-i][0-9][a-i][0-9]$/) {
						s = ""
						for (j = 1; j <= 4; j++) {
							c = substr(w[i], j, 1)
							p = index("abcdefghi", c)
							s = s (p ? substr("ihgfedcba", p, 1) : c)
						}
						w[i] = s
					}
					out = out " " w[i]
				}
				moves = out
			} else if (kind == 2) {
				# drop the last move (and a move number left before the result)
				nw = split(moves, w, " ")
				last = 0
				for (i = nw; i > 0; i--) if (w[i] ~ /^[a-i][0-9][a-i][0-9]$/) { last = i; break }
				if (last > 2) {
					out = ""
					for (i = 1; i <= nw; i++) {
						if (i == last) continue
						if (i == last - 1 && w[i] ~ /^[0-9]+\.$/) continue
						out = out " " w[i]
					}
					moves = out
				}
			}
			gsub(/\t/, "\n", tags)
			print tags
			print moves
			print ""
			written++
		}
		close(src)
	}
}' > "$work/big.pgn"

sum() { "$xqkit" dedupe -q --format ndjson "$@" "$work/big.pgn" | tail -1 |
	sed 's/.*"games":\([0-9]*\).*"compared":\([0-9]*\),"groups":\([0-9]*\),"duplicates":\([0-9]*\).*/\1 games, \2 compared, \3 groups, \4 duplicates/'; }
echo "collection: $(wc -c < "$work/big.pgn") bytes; $per games repeated"
echo "  dedupe:                   $(sum)"
echo "  dedupe --mirror --prefix: $(sum --mirror --prefix)"
: > "$work/v"; : > "$work/a"; : > "$work/b"
i=0
while [ $i -lt "$runs" ]; do
	measure "$work/v" "$xqkit" validate -q -j 1 "$work/big.pgn"
	measure "$work/a" "$xqkit" dedupe -q -j 1 "$work/big.pgn"
	measure "$work/b" "$xqkit" dedupe -q -j 1 --mirror --prefix "$work/big.pgn"
	i=$((i + 1))
done
set -- $(report "$work/v") $(report "$work/a") $(report "$work/b")
awk -v v="$1" -v vc="$2" -v vr="$3" -v a="$4" -v ac="$5" -v ar="$6" -v b="$7" -v bc="$8" \
	-v br="$9" -v r="$runs" 'BEGIN {
	printf "  validate:                 %7.2f s wall %7.2f s CPU %8d KiB peak (medians of %d)\n", v, vc, vr, r
	printf "  dedupe:                   %7.2f s wall %7.2f s CPU %8d KiB peak\n", a, ac, ar
	printf "  dedupe --mirror --prefix: %7.2f s wall %7.2f s CPU %8d KiB peak\n", b, bc, br }'
