# 400,000 plies of horses shuffling (h0g2 h9g7 g2h0 g7h9, 3.4 MB of PGN),
# one repetition from the first ply to the last.  Every ply scanned back
# over the positions since the last capture: 10-30 s for 200,000 plies
# under the default rules, 0.07 s with --rules none (issue 14, finding 5).
awk 'BEGIN {
	n = 400000
	split("h0g2 h9g7 g2h0 g7h9", cyc, " ")
	printf "[Event \"shuffle\"]\n\n"
	for (k = 0; k < n; k++) {
		if (k % 2 == 0)
			printf "%d. ", k / 2 + 1
		printf "%s ", cyc[k % 4 + 1]
	}
	print "*"
}' > "$T/shuffle.pgn"
for rules in asian chinese; do
	limited 20 512 "$XQKIT" validate -q --rules $rules "$T/shuffle.pgn"
	expect_status 0
	expect_err "plies 1-400000 repeat (h0g2 h9g7 g2h0 g7h9;"
	expect_err "draw under $rules rules"
done
limited 20 512 "$XQKIT" validate -q --rules none "$T/shuffle.pgn"
expect_status 0
expect_no_err "repeat"
