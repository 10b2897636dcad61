# convert -t html of many games: the page's index (a line per game,
# written after the games) was held in memory, 780 MB for 4.7 million
# one-ply games, and at the end copied into memory again.  It is kept in
# a scratch file beyond 1 MiB and goes to the output in pieces, so the
# page is written in a few MB whatever the number of games.  60,000 games
# whose index lines take a kilobyte each: 60 MB of index, in a 64 MB
# address space.
awk 'BEGIN {
	pad = sprintf("%300s", "")
	gsub(/ /, "x", pad)
	for (i = 0; i < 60000; i++)
		printf "[Red \"Red %d %s\"]\n[Black \"Black %d %s\"]\n[Event \"Event %d %s\"]\n\n1. h2e2 *\n\n", i, pad, i, pad, i, pad
}' > "$T/many.pgn" || fail "awk"
limited 30 64 "$XQKIT" convert -q -t html -o /dev/null "$T/many.pgn"
expect_status 0
# The index is whole and in order (one page, to a pipe).
limited 30 64 sh -c "\"$XQKIT\" convert -q -t html \"$T/many.pgn\" | sed -n '/<nav id=\"index\">/,/<\/nav>/p' | grep -o '<li><a href=\"#g[0-9]*\"' | sed 's/[^0-9]//g' > \"$T/numbers\""
expect_status 0
[ "$(wc -l < "$T/numbers")" = 60000 ] || fail "the index lists $(wc -l < "$T/numbers") games, not 60000"
seq 60000 | cmp -s - "$T/numbers" || fail "the index is not in the games' order"
