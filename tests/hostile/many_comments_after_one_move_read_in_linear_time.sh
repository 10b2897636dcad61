# 300,000 one-letter comments after one move (900 KB of PGN).  Each was
# joined to the ones before it by copying them all: quadratic in time and
# memory (20,000 took 400 MB, these would take about 90 GB; a slow input
# of fuzz_pgn, issue 14).  Now one copy, well inside the limits.
awk 'BEGIN {
	printf "[Event \"comments\"]\n\n1. h2e2 "
	for (i = 0; i < 300000; i++) printf "{a}"
	print " h9g7 *"
}' > "$T/comments.pgn"
limited 10 256 "$XQKIT" convert -q -t ndjson -o "$T/out.ndjson" "$T/comments.pgn"
expect_status 0
[ "$(wc -c < "$T/out.ndjson")" -gt 600000 ] || fail "the comment was not kept whole"
exit 0
