# -o DIR/ --force replaces files in DIR as it goes: a file there that is an
# input (named in a --files0-from list read from a pipe, which is read
# whole before anything is replaced) is not written, and stays as it was;
# the other games are written.
# (It used to be replaced.)
mkdir -p "$T/games"
"$XQKIT" convert -q -t pgn -o "$T/games/" samples/liu-dahua-iccs.pgn || fail "setup"
first=$(ls "$T/games" | head -1)
[ -n "$first" ] || fail "setup wrote nothing"
cp "$T/games/$first" "$T/kept"
mkfifo "$T/fifo"
printf '%s\0' "$T/games/$first" "$(pwd)/samples/liu-dahua-iccs.pgn" > "$T/fifo" &
limited 30 512 "$XQKIT" convert -t pgn --files0-from - -o "$T/games/" --force < "$T/fifo"
expect_status 1
expect_err "is one of the inputs, and an input is never overwritten"
expect_same "$T/games/$first" "$T/kept"
no_temp_files "$T"
