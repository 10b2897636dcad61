# One byte that is not UTF-8 in a tag split its game in two (the tag was
# dropped, so the next tag line began a new game), and one in a comment
# broke its game (issue 33).  A big UTF-8 file where every game has such a
# byte in a tag, in a comment and on the line after its result reads as
# many games as it holds, none broken, by -j 1 as by -j 2 (which cuts it
# into chunks that must end where the reader ends each game); each byte
# becomes U+FFFD with a warning, and convert writes every game.
awk 'BEGIN {
	for (i = 1; i <= 8000; i++) {
		printf "[Event \"第%d轮\"]\n[Red \"L\377on %d\"]\n[Black \"许银川\"]\n[Result \"1-0\"]\n\n", i, i
		printf "1. 炮二平五 {好棋 \376} 马８进７ 2. 马二进三 1-0\n\201\n\n"
	}
}' > "$T/stray.pgn"
[ "$(wc -c < "$T/stray.pgn")" -gt 1048576 ] || fail "the file is too small to be cut for -j 2"

for j in 1 2; do
	limited 60 1024 "$XQKIT" validate -j $j --format ndjson "$T/stray.pgn"
	expect_status 1 # (warnings fail validate by default: --fail-on)
	grep -q '"games":8000,"broken_games":0,' "$T/out" || fail "-j $j: not 8000 whole games: $(tail -1 "$T/out")"
	grep -q '"warnings":24000,' "$T/out" || fail "-j $j: not three warnings a game: $(tail -1 "$T/out")"
	sed 's/"seconds":[0-9.]*//' "$T/out" > "$T/report.$j"
	limited 60 1024 "$XQKIT" convert -t pgn -j $j -o "$T/out.$j.pgn" "$T/stray.pgn"
	expect_status 0
	expect_err "convert: 8000 games from 1 file to pgn: 8000 written"
done
expect_same "$T/report.1" "$T/report.2"
expect_same "$T/out.1.pgn" "$T/out.2.pgn"
grep -q '^\[Red "L�on 8000"\]$' "$T/out.1.pgn" || fail "the tag does not hold U+FFFD for the byte"
grep -q '{好棋 �}' "$T/out.1.pgn" || fail "the comment does not hold U+FFFD for the byte"
exit 0
