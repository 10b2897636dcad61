# convert -o DIR/ --name '{Red}' written 20,000 times, for games whose Red
# holds 10,000 bytes: every part was expanded (200 MB a game) before the
# name was cut at 200 bytes (12.5 s for one game).  The name stops
# growing at its length; the files are named by the tag's first 200 bytes
# (and -2, -3 ... after the first).
awk 'BEGIN {
	for (g = 0; g < 3; g++) {
		printf "[Red \""
		for (i = 0; i < 1000; i++) printf "abcdefghij"
		printf "\"]\n\n1. h2e2 h9g7 *\n\n"
	}
}' > "$T/long-red.pgn" || fail "awk"
name=$(awk 'BEGIN { for (i = 0; i < 20000; i++) printf "{Red}" }')
limited 5 128 "$XQKIT" convert -q -t pgn -o "$T/games/" --name "$name" "$T/long-red.pgn"
expect_status 0
want=$(awk 'BEGIN { for (i = 0; i < 20; i++) printf "abcdefghij" }')
for f in "$want.pgn" "$want-2.pgn" "$want-3.pgn"; do
	[ -f "$T/games/$f" ] || fail "no file $f: $(ls "$T/games" | head -3)"
done
