# A FIFO given as the output is written through, with or without --force,
# and stays a FIFO.  It used to be replaced by a regular file (--force) or
# refused.
mkfifo "$T/fifo" || fail "mkfifo"
for force in "" --force; do
	cat "$T/fifo" > "$T/got" &
	reader=$!
	limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/fifo" $force samples/sample.xqf
	wait $reader
	expect_status 0
	[ -p "$T/fifo" ] || fail "convert $force: the FIFO is no longer a FIFO"
	grep -q '^\[Event' "$T/got" || fail "convert $force: nothing came through the FIFO"
done
no_temp_files "$T"
