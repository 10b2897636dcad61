# 30,000 plies of horses shuffling, no capture: every position was handed
# to the analyser with its whole history, copied and checked move by move
# again for each (20,000 plies took 9.9 s at --depth 1, 2,000 took 0.14 s;
# issue 15).  Now each gets only the plies its analyser looks at.
cycle_pgn 30000 "h0g2 h9g7 g2h0 g7h9" > "$T/shuffle.pgn"
secs=12
[ -n "${XQ_SANITIZE:-}" ] && secs=60
limited $secs 512 "$XQKIT" annotate -q --depth 1 -o "$T/out.pgn" "$T/shuffle.pgn"
expect_status 0
[ "$(grep -o '/1}' "$T/out.pgn" | wc -l)" -eq 30000 ] ||
	fail "not every one of the 30000 moves has its score"
grep -qF '[XqkitAnnotate "xqkit annotate, built-in engine' "$T/out.pgn" ||
	fail "the game has no annotation marker"
