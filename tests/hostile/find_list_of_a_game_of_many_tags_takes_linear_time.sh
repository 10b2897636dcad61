# find --list writes each game's tags as one JSON object, the first tag of
# each name, which it told by a scan of the tags before each one:
# quadratic (issue 34, finding 3's "any other writer"; 60,000 tags took
# 4.7 s).  100,000 tags, half of them repeats of one name.
awk 'BEGIN {
	print "[Event \"many tags\"]"
	for (i = 0; i < 50000; i++) printf "[T%d \"v\"]\n[Remark \"r%d\"]\n", i, i
	print ""
	print "1. h2e2 h9g7 *"
}' > "$T/tags.pgn"
limited 10 512 "$XQKIT" find -q --list "$T/tags.pgn"
expect_status 0
grep -q '"T49999":"v","Remark":"r0"' "$T/out" && fail "a repeated tag's first was not kept where it stands"
grep -q '"T0":"v","Remark":"r0","T1":"v","T2"' "$T/out" || fail "the tags are not the first of each name, in order"
exit 0
