# An input that holds no game is the error no-game, exit status 1, in every
# command, whether it is an empty file (with or without an extension),
# standard input, or white space.  An empty file used to mean
# "no problems found" (0) while the same bytes on standard input exited 1.
: > "$T/empty.pgn"
: > "$T/empty"
printf '\n  \r\n\t\n' > "$T/blank.pgn"
for cmd in validate "convert -t pgn" replay "annotate --depth 1" stats; do
	for input in "$T/empty.pgn" "$T/empty" "$T/blank.pgn"; do
		limited 30 512 "$XQKIT" $cmd "$input"
		echo "$cmd $input: $status"
		expect_status 1
		expect_err "the input holds no game [no-game]"
	done
	for input in "$T/empty" "$T/blank.pgn"; do
		limited 30 512 "$XQKIT" $cmd - < "$input"
		echo "$cmd - < $input: $status"
		expect_status 1
		expect_err "<stdin>: error: the input holds no game [no-game]"
	done
done
