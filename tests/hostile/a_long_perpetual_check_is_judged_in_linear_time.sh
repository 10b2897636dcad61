# 400,000 plies of a rook checking a king that steps back and forth, the
# loss recorded: one cycle judged over all of them (issue 14, finding 5:
# the repetition check was quadratic in plies, judged cycles included).
cycle_pgn 400000 "i8i9 d9d8 i9i8 d8d9" "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1" 0-1 > "$T/check.pgn"
for rules in asian chinese; do
	limited 20 512 "$XQKIT" validate --rules $rules "$T/check.pgn"
	expect_status 0
	expect_err "plies 1-400000 repeat"
	expect_err "red checks every move, black's moves are allowed: red loses under $rules rules, as recorded [perpetual-check]"
done
