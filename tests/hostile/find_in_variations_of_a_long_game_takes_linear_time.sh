# find --variations on a game of 200,000 plies with a variation at its
# end.  Telling the main line's moves from a variation's by climbing to
# the root from each one took time quadratic in the plies (billions of
# steps here); the walk's first moves are the main line, skipped by count.
awk 'BEGIN {
	n = 50000
	printf "[Event \"long\"]\n\n"
	for (i = 0; i < n; i++) printf "%d. h0g2 h9g7 %d. g2h0 g7h9\n", 2 * i + 1, 2 * i + 2
	print "(100000... i9h9) *"
}' > "$T/long.pgn"
limited 20 512 "$XQKIT" find -q --count --variations --rules none --fen '3k5/9/9/9/9/9/9/9/9/4K4 w' "$T/long.pgn"
expect_status 1 # (nothing found: grep's convention)
