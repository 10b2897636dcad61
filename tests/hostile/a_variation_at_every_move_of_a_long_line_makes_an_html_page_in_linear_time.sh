# A 50,000-ply line (horses shuffling) with a one-move variation at every
# ply (1.1 MB of PGN), as one HTML page: the writer walks the tree once in
# reading order and the main line once, never from the root per node.
# Inside the limit, with every move in the page's move data.
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
limited 20 512 "$XQKIT" convert -q -t html -o "$T/comb.html" "$T/comb.pgn"
expect_status 0
moves=$(sed -n 's/.* data-moves="\([^"]*\)".*/\1/p' "$T/comb.html" | wc -w)
[ "$moves" = 100000 ] || fail "$moves moves in the page's data, expected 100000"
