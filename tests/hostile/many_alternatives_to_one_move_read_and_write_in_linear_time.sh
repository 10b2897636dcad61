# 100,000 alternatives to one move, side by side (1 MB of PGN).  Each
# alternative was appended by walking the ones before it: quadratic
# (issue 14, finding 4).  Read, written to every format, read back and
# compared, each well inside the limit.
awk 'BEGIN {
	n = 100000
	printf "[Event \"siblings\"]\n\n1. h2e2 "
	for (i = 0; i < n; i++) printf "(1. c3c4) "
	print "*"
}' > "$T/siblings.pgn"
limited 20 512 "$XQKIT" validate -q "$T/siblings.pgn"
expect_status 0
every_format "$T/siblings.pgn"
