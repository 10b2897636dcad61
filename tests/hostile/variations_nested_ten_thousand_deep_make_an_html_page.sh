# Each black move's alternative holds the rest of the game: variations
# nested 10,000 deep (0.3 MB of PGN).  A writer that recursed into
# variations would overflow its stack; the page is written inside the
# limit and closes every variation it opens.
awk 'BEGIN {
	n = 10000
	printf "[Event \"nest\"]\n\n"
	for (k = 0; k < n; k++) {
		num = k + 1
		r = (k % 2 == 0) ? "b0c2" : "c2b0"
		a = (k % 2 == 0) ? "h9g7" : "g7h9"
		printf "%d. %s b9c7 (%d... %s ", num, r, num, a
	}
	for (k = 0; k < n; k++) printf ")"
	print " *"
}' > "$T/nest.pgn"
limited 20 512 "$XQKIT" validate -q --rules none "$T/nest.pgn"
expect_status 0
limited 20 512 "$XQKIT" convert -q -t html -o "$T/nest.html" "$T/nest.pgn"
expect_status 0
opened=$(grep -o '<span class="v">(' "$T/nest.html" | wc -l)
closed=$(grep -o ')</span>' "$T/nest.html" | wc -l)
[ "$opened" = 10000 ] && [ "$closed" = 10000 ] || fail "$opened variations opened, $closed closed"
