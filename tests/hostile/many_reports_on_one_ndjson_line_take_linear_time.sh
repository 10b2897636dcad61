# One NDJSON line of 100,000 moves (2.3 MB), each with a member the reader
# does not know: every warning counted the characters from the line's
# start to give its column, quadratic (40,000 took 19 s; a slow input of
# fuzz_ndjson, issue 14).  Now a few tenths of a second.
awk 'BEGIN {
	split("h2e2 h9g7 e2h2 g7h9", cyc, " ")
	printf "{\"schema\":\"xqkit.game/1\",\"moves\":["
	for (k = 0; k < 100000; k++)
		printf "%s{\"iccs\":\"%s\",\"zz\":1}", k ? "," : "", cyc[k % 4 + 1]
	print "]}"
}' > "$T/many.ndjson"
limited 10 256 "$XQKIT" validate -q --rules none "$T/many.ndjson"
expect_status 1
expect_err "many.ndjson:1:2300027: warning: game 1, ply 100000: unknown member \"zz\" ignored [syntax]"
exit 0
