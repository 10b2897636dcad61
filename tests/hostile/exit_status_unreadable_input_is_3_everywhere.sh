# An input that cannot be read (missing) is an I/O error, exit status 3, in
# every command (annotate used to exit 1).  A directory without -r is a
# usage error, exit status 2, that says to add -r (issue 15).
mkdir "$T/dir"
for cmd in validate "convert -t pgn" replay "annotate --depth 1" stats; do
	limited 30 512 "$XQKIT" $cmd "$T/missing.pgn"
	echo "$cmd missing: $status"
	expect_status 3
done
for cmd in validate "convert -t pgn" replay "annotate --depth 1" stats; do
	limited 30 512 "$XQKIT" $cmd "$T/dir"
	echo "$cmd dir: $status"
	expect_status 2
	expect_err "add -r"
done
