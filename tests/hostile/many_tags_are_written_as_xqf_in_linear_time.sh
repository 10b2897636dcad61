# A game of 150,000 tags (2 MB of PGN): 50,000 that XQF has no place
# for, 50,000 Red tags and 50,000 Result tags.  The XQF writer looked
# for each tag's name among all the tags before it, to tell a repeated
# one: quadratic (issue 34, finding 3: 50,000 tags took 8.7 s, 350,000
# more than a minute).  Now each repeat is known at once; written, every
# tag but the first Red and the result reported, in well under a second.
awk 'BEGIN {
	print "[Event \"many tags\"]"
	for (i = 0; i < 50000; i++) printf "[T%d \"v\"]\n[Red \"r%d\"]\n[Result \"1-0\"]\n", i, i
	print ""
	print "1. h2e2 h9g7 1-0"
}' > "$T/tags.pgn"
limited 10 512 "$XQKIT" convert -t xqf -o "$T/out.xqf" "$T/tags.pgn"
expect_status 0
expect_err "tag T49999 ('v') has no place in XQF and was dropped [loss]"
expect_err "tag Red appears again ('r49999'); only the first is kept [loss]"
expect_err "tag Result appears again ('1-0'); only the first is kept [loss]"
[ "$(grep -c 'appears again' "$T/err")" -eq 99998 ] || fail "not every repeated tag was reported"
limited 10 512 "$XQKIT" convert -q -t pgn "$T/out.xqf"
expect_status 0
grep -qx '\[Red "r0"\]' "$T/out" || fail "the first Red tag was not the one kept"
exit 0
