# --files0-from naming the output file (after another input): nothing is
# written, the file stays byte for byte, whether the list is a file or
# comes down a pipe, for convert and annotate.  It used to be replaced (by
# an empty file when it was the first name).
mkdir -p "$T/in"
cp samples/liu-dahua-iccs.pgn "$T/in/games.pgn"
cp samples/ccgc-2006-01-gbk.pgn "$T/in/o.pgn"
printf '%s\0%s\0' "$T/in/o.pgn" "$T/in/games.pgn" > "$T/list"
limited 30 512 "$XQKIT" convert -t pgn --files0-from "$T/list" -o "$T/in/games.pgn" --force
expect_status 2
expect_err "is the output file: an input is never overwritten"
expect_same "$T/in/games.pgn" samples/liu-dahua-iccs.pgn
mkfifo "$T/fifo"
printf '%s\0' "$T/in/games.pgn" > "$T/fifo" &
limited 30 512 "$XQKIT" convert -t ndjson --files0-from - -o "$T/in/games.pgn" --force < "$T/fifo"
expect_status 2
expect_same "$T/in/games.pgn" samples/liu-dahua-iccs.pgn
limited 30 512 "$XQKIT" annotate --depth 1 --files0-from "$T/list" -o "$T/in/games.pgn" --force
expect_status 2
expect_err "it is also an input"
expect_same "$T/in/games.pgn" samples/liu-dahua-iccs.pgn
# A directory of the list that holds the output is refused too.
printf '%s\0' "$T/in" > "$T/dirlist"
limited 30 512 "$XQKIT" convert -t pgn -r --files0-from "$T/dirlist" -o "$T/in/games.pgn" --force
expect_status 2
expect_err "holds the output file"
expect_same "$T/in/games.pgn" samples/liu-dahua-iccs.pgn
no_temp_files "$T"
