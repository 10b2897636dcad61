# 100,000 variations, each nested in the one before (1 MB of PGN: every one
# an alternative to the first move).  Appending an alternative walked its
# siblings, so reading took 11-18 s and 10 MB took minutes (issue 14,
# finding 4).  Read, written to every format, read back and compared,
# each well inside the limit.
awk 'BEGIN {
	n = 100000
	printf "[Event \"nested\"]\n\n1. h2e2 "
	for (i = 0; i < n; i++) printf "(1. c3c4 "
	for (i = 0; i < n; i++) printf ")"
	print " *"
}' > "$T/nested.pgn"
limited 20 512 "$XQKIT" validate -q "$T/nested.pgn"
expect_status 0
every_format "$T/nested.pgn"
