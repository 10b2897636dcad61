# replay --svg INPUT --force INPUT: the input is never replaced by the
# diagram.  It used to be.
cp samples/liu-dahua-iccs.pgn "$T/g.pgn"
limited 30 512 "$XQKIT" replay --svg "$T/g.pgn" --force "$T/g.pgn"
expect_status 2
expect_err "is an input"
expect_same "$T/g.pgn" samples/liu-dahua-iccs.pgn
no_temp_files "$T"
