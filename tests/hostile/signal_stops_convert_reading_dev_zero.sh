# SIGINT or SIGTERM while convert reads an endless input (/dev/zero read as
# PGN): it stops within 2 s (about 10 ms on an idle machine), exits 130 or
# 143, and leaves neither the output nor a temporary file.  It used to
# ignore SIGINT there until killed.
for jobs in 1 2; do
	interrupt INT 1 "$XQKIT" convert -t pgn --from pgn -j $jobs -o "$T/z.pgn" /dev/zero
	expect_status 130
	expect_within 2000
	expect_err "interrupted: no output is left behind"
	[ -e "$T/z.pgn" ] && fail "-j $jobs: the output was left behind"
	no_temp_files "$T"
	interrupt TERM 1 "$XQKIT" convert -t pgn --from pgn -j $jobs -o "$T/z.pgn" /dev/zero
	expect_status 143
	expect_within 2000
	[ -e "$T/z.pgn" ] && fail "-j $jobs: the output was left behind"
	no_temp_files "$T"
done
