# SIGINT or SIGTERM while convert reads an endless input (games without
# end down a pipe; /dev/zero read as PGN now ends by itself after 16 MiB,
# LIMITS in xqkit(1)): it stops within 2 s (about 10 ms on an idle
# machine), exits 130 or 143, and leaves neither the output nor a
# temporary file.  It used to ignore SIGINT there until killed.
mkfifo "$T/feed" || fail "mkfifo"
feed() {
	yes '1. h2e2 h9g7 2. h0g2 *' > "$T/feed" 2> /dev/null &
}
for jobs in 1 2; do
	feed
	interrupt INT 0.3 "$XQKIT" convert -t pgn --from pgn -j $jobs -o "$T/z.pgn" - < "$T/feed"
	expect_status 130
	expect_within 2000
	expect_err "interrupted: no output is left behind"
	[ -e "$T/z.pgn" ] && fail "-j $jobs: the output was left behind"
	no_temp_files "$T"
	feed
	interrupt TERM 0.3 "$XQKIT" convert -t pgn --from pgn -j $jobs -o "$T/z.pgn" - < "$T/feed"
	expect_status 143
	expect_within 2000
	[ -e "$T/z.pgn" ] && fail "-j $jobs: the output was left behind"
	no_temp_files "$T"
done
