# A 50,000-ply line (horses shuffling) with a one-move variation at every
# ply (1.1 MB of PGN).  Readers and writers that found a node's position
# or ply from the root did depth steps per variation or per node:
# quadratic (issue 14, finding 4; PGN, DhtmlXQ and CBF readers, PGN and
# CBF writers).  Read, written to every format, read back and compared,
# each well inside the limit, and made into an HTML page holding every
# move.  No repetition rules: the shuffle repeats.
awk 'BEGIN {
	n = 50000
	split("h0g2 h9g7 g2h0 g7h9", cyc, " ")
	printf "[Event \"comb\"]\n\n"
	for (k = 0; k < n; k++) {
		num = int(k / 2) + 1
		if (k % 2 == 0)
			printf "%d. %s (%d. a0a1) ", num, cyc[k % 4 + 1], num
		else
			printf "%s (%d... a9a8) ", cyc[k % 4 + 1], num
	}
	print "*"
}' > "$T/comb.pgn"
limited 20 512 "$XQKIT" validate -q --rules none "$T/comb.pgn"
expect_status 0
every_format "$T/comb.pgn" --rules none
limited 20 512 "$XQKIT" convert -q -t html -o "$T/comb.html" "$T/comb.pgn"
expect_status 0
moves=$(sed -n 's/.* data-moves="\([^"]*\)".*/\1/p' "$T/comb.html" | wc -w)
[ "$moves" = 100000 ] || fail "$moves moves in the HTML page's data, expected 100000"
