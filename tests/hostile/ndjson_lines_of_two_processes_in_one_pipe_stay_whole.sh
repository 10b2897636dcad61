# Two xqkit processes writing NDJSON into one pipe at once (xargs -P, a
# shell's `&`): every line must be whole, which needs each record flushed
# as one write when standard output is a pipe.  Fully buffered output cut
# records at buffer boundaries and the two processes' halves interleaved
# (issue 15).  Records of convert -t ndjson, validate --format ndjson and
# replay --output-format ndjson, 500 games each.
i=0
while [ $i -lt 5 ]; do
	cat tests/cli/convert/jobs-split-stdin/stdin
	i=$((i + 1))
done > "$T/many.pgn"
for cmd in "convert -q -t ndjson" "validate -q --format ndjson" "replay -q --output-format ndjson"; do
	limited 60 512 sh -c '
		{ "$1" $2 "$3" 2> /dev/null & "$1" $2 "$3" 2> /dev/null & wait; } | cat' sh "$XQKIT" "$cmd" "$T/many.pgn"
	lines=$(wc -l < "$T/out")
	[ "$lines" -gt 1000 ] || fail "$cmd: only $lines lines"
	bad=$(grep -acv '^{"schema":"xqkit\.[a-z]*/1",.*}$' "$T/out")
	[ "$bad" = 0 ] || fail "$cmd: $bad of $lines lines are not one whole record: $(grep -av '^{"schema":"xqkit\.[a-z]*/1",.*}$' "$T/out" | head -c 300)"
done
