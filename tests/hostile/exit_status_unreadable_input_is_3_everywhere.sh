# An input that cannot be read (missing, a directory without -r) is an I/O
# error, exit status 3, in every command (annotate used to exit 1).
mkdir "$T/dir"
for cmd in validate "convert -t pgn" replay "annotate --depth 1"; do
	for input in "$T/missing.pgn" "$T/dir"; do
		limited 30 512 "$XQKIT" $cmd "$input"
		echo "$cmd $input: $status"
		expect_status 3
	done
done
