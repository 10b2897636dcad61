# convert --verify reads each game back and compares the first tag of
# each name with what came back, which it looked up by a scan of both
# games' tags for every tag: quadratic (issue 34, finding 3's "any other
# writer or reader"; 60,000 tags took 6 s a format).  A game of 50,000
# distinct tags and 50,000 repeats of one, verified in every format that
# holds any tag, each well inside the limit.
awk 'BEGIN {
	print "[Event \"many tags\"]"
	for (i = 0; i < 50000; i++) printf "[T%d \"v%d\"]\n[Remark \"r%d\"]\n", i, i, i
	print ""
	print "1. h2e2 h9g7 *"
}' > "$T/tags.pgn"
for to in pgn ndjson dhtmlxq; do
	limited 10 512 "$XQKIT" convert -q --verify -t $to -o "$T/out.$to" "$T/tags.pgn"
	expect_status 0
done
exit 0
