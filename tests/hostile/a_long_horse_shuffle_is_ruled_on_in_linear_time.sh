# 400,000 plies of horses shuffling (h0g2 h9g7 g2h0 g7h9, 3.4 MB of PGN),
# one repetition from the first ply to the last.  Every ply scanned back
# over the positions since the last capture: 10-30 s for 200,000 plies
# under the default rules, 0.07 s with --rules none (issue 14, finding 5).
cycle_pgn 400000 "h0g2 h9g7 g2h0 g7h9" > "$T/shuffle.pgn"
for rules in asian chinese; do
	limited 20 512 "$XQKIT" validate --rules $rules "$T/shuffle.pgn"
	expect_status 0
	expect_err "plies 1-400000 repeat (h0g2 h9g7 g2h0 g7h9;"
	expect_err "draw under $rules rules"
done
limited 20 512 "$XQKIT" validate -q --rules none "$T/shuffle.pgn"
expect_status 0
expect_no_err "repeat"
