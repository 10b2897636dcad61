# A DhtmlXQ move list of 200,000 plies (800 KB of digits).  The place of
# each move was counted from the start of the list: quadratic, 100 s to
# read (issue 14, finding 4).  No repetition rules: the horses shuffle.
awk 'BEGIN {
	n = 200000
	split("7967 7062 6779 6270", cyc, " ")
	printf "[DhtmlXQ]\n[DhtmlXQ_movelist]"
	for (k = 0; k < n; k++) printf "%s", cyc[k % 4 + 1]
	print "[/DhtmlXQ_movelist]\n[/DhtmlXQ]"
}' > "$T/long.txt"
limited 20 512 "$XQKIT" validate -q --rules none --from dhtmlxq "$T/long.txt"
expect_status 0
expect_no_err "illegal"
