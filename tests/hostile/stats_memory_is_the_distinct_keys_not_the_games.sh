# 200,000 games on a pipe, of four players and one opening: stats by
# player, by ECCO and as a tree ten plies deep holds a row per player,
# per code or per move, never the games, so each stays well inside 64 MB
# (a game's record alone would take more than 100 bytes: 20 MB at least).
awk 'BEGIN {
	for (i = 0; i < 200000; i++)
		printf "[Red \"P%d\"]\n[Black \"P%d\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 5. c3c4 g6g5 1-0\n\n", i % 4, (i + 1) % 4
}' > "$T/many.pgn"
for how in "--by player" "--by ecco" "--tree --depth 10"; do
	limited 60 64 "$XQKIT" stats $how "$T/many.pgn"
	echo "stats $how: $status"
	expect_status 0
	expect_err "200000 games from 1 file"
done
