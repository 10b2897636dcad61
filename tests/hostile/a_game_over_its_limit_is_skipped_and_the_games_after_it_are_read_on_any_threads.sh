# A PGN game over 4 MiB stopped the reading of its whole file: the six
# normal games after it were lost, with "the rest of the input is not read",
# and no option raised the limit (issue 33).  Now the game is reported
# (a resource error at the place the limit was passed), kept broken with
# what came before the limit, and the games after it are read: by -j 1 as
# by -j 2, which cuts the file into chunks (1,000 games before the big one
# put it in a later chunk, whose lines count from its own start until the
# batch puts them right: the message names no line of its own); the same
# as NDJSON (a line over its 12 MiB); and --max-game-size reads it whole.
{
	for i in $(seq 1 1000); do
		printf '[Event "before %d"]\n[Result "1-0"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n\n' "$i"
	done
	printf '[Event "big"]\n[Result "*"]\n\n1. h2e2 h9g7 '
	# 5.5 MB of moves and comments: over the limit of a PGN game (4 MiB).
	awk 'BEGIN { for (i = 0; i < 72000; i++)
		printf "%d. h0g2 {a comment of some length, as annotators write} g7h9 %d. g2h0 h9g7\n", 2 * i + 2, 2 * i + 3 }'
	printf '*\n\n'
	for i in 1 2 3 4 5 6; do
		printf '[Event "after %d"]\n[Result "0-1"]\n\n1. h2e2 h9g7 0-1\n\n' "$i"
	done
} > "$T/big.pgn"

for j in 1 2; do
	limited 60 1024 "$XQKIT" validate -j $j "$T/big.pgn"
	expect_status 1
	expect_err "big.pgn:56258:14: error: game 1001, ply 205019: the game is larger than 4 MiB, the pgn format's limit for one record; it is kept up to here, its rest is skipped and reading goes on at the next game [resource]"
	expect_err "1 file, 1007 games,"
	sed 's/ in [0-9.]* s$//' "$T/err" > "$T/validate.$j"
	limited 60 1024 "$XQKIT" convert -t pgn -j $j -o "$T/out.$j.pgn" "$T/big.pgn"
	expect_status 1
	expect_err "convert: 1007 games from 1 file to pgn: 1006 written, 1 skipped"
	[ "$(grep -c '^\[Event "after' "$T/out.$j.pgn")" = 6 ] || fail "-j $j: the games after the big one were not all written"
done
expect_same "$T/validate.1" "$T/validate.2"
expect_same "$T/out.1.pgn" "$T/out.2.pgn"

# --max-game-size: smaller, and larger (within what the budget holds).
limited 60 1024 "$XQKIT" validate -q --max-game-size 100K "$T/big.pgn"
expect_status 1
expect_err "error: game 1001, ply 5175: the game is larger than 100 KiB, the limit for one record (--max-game-size)"
limited 60 1024 "$XQKIT" validate -q --max-game-size 8M --max-memory 512M "$T/big.pgn"
expect_status 0
limited 10 256 "$XQKIT" validate --max-game-size 10 "$T/big.pgn"
expect_status 2
expect_err "--max-game-size '10': a size of at least 1K is needed"

# The same collection as NDJSON: its big line (over 12 MiB) is skipped.
limited 60 1024 "$XQKIT" convert -q -t ndjson --max-game-size 8M --max-memory 512M -o "$T/big.ndjson" "$T/big.pgn"
expect_status 0
for j in 1 2; do
	limited 60 1024 "$XQKIT" validate -j $j "$T/big.ndjson"
	expect_status 1
	expect_err "big.ndjson:1001:1: error: game 1001: the record is larger than 12 MiB, the ndjson format's limit for one record; it is skipped and reading goes on at the next line [resource]"
	expect_err "1 file, 1007 games,"
	sed 's/ in [0-9.]* s$//' "$T/err" > "$T/nd.$j"
done
expect_same "$T/nd.1" "$T/nd.2"
exit 0
