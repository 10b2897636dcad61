# annotate --resume over an earlier PGN output cut short inside its last
# game (what a kill or a power loss leaves): inside a tag, after "1. ",
# inside a move or a comment, before the result.  It used to copy that
# game as finished, its moves gone, exit status 0.  A game is copied only
# when it is proven whole (its main line as long as the input game's and
# its moves ended by the result); otherwise it is analysed again.  So
# whatever byte the file was cut at, going on with --resume gives the
# output an uncut run gives, byte for byte.  (Some 400 runs: under
# sanitizers, on a loaded machine, every third byte, so that the case
# ends within its time.)
printf '[Event "one"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n[Event "two"]\n\n1. c3c4 b9c7 2. b0c2 1-0\n' > "$T/in.pgn"
limited 30 512 "$XQKIT" annotate -q --depth 1 --hash 1 -o "$T/full.pgn" "$T/in.pgn"
expect_status 0
size=$(wc -c < "$T/full.pgn")
last=$(grep -b '^\[Game ' "$T/full.pgn" | cut -d: -f1 | tail -n 1)
[ -n "$last" ] && [ "$last" -gt 0 ] || fail "no second game in the output"
k=$((last - 1)) # from the blank line before it
step=1
[ -n "${XQ_SANITIZE:-}" ] && step=3
while [ "$k" -lt "$size" ]; do
	head -c "$k" "$T/full.pgn" > "$T/cut.pgn"
	timeout 30 "$XQKIT" annotate -q --depth 1 --hash 1 --resume -o "$T/cut.pgn" "$T/in.pgn" 2> "$T/err" ||
		fail "cut at byte $k of $size: exit status $? ($(head -c 300 "$T/err"))"
	cmp -s "$T/cut.pgn" "$T/full.pgn" ||
		fail "cut at byte $k of $size: the resumed output is not the whole run's"
	k=$((k + step))
done
no_temp_files "$T"
