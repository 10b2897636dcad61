# 400,000 plies of a rook chasing an unprotected horse, the loss recorded:
# one cycle, every move classified and judged once (issue 14, finding 5).
cycle_pgn 400000 "h9h8 b8d9 h8h9 d9b8" "7R1/1n7/P3k4/9/8P/9/6N2/9/9/5K3 w - - 0 1" 0-1 \
	> "$T/chase.pgn"
for rules in asian chinese; do
	limited 20 512 "$XQKIT" validate --rules $rules "$T/chase.pgn"
	expect_status 0
	expect_err "plies 1-400000 repeat"
	expect_err "red loses under $rules rules, as recorded [perpetual-chase]"
done
