# 400,000 plies of two horse shuffles (h file, b file) in an irregular
# order: a new repetition cycle every few plies, some 100,000 of them.
# Each cycle was judged by replaying the line from its end, and replay
# asked every cycle at every ply: quadratic in plies times cycles
# (issue 14, finding 5).
awk 'BEGIN {
	n = 400000
	split("h0g2 h9g7 g2h0 g7h9", a, " ")
	split("b0c2 b9c7 c2b0 c7b9", b, " ")
	srand(7)
	printf "[Event \"many cycles\"]\n\n"
	for (k = 0; k < n; k++) {
		if (k % 4 == 0)
			use_a = rand() < 0.5
		if (k % 2 == 0)
			printf "%d. ", k / 2 + 1
		printf "%s ", use_a ? a[k % 4 + 1] : b[k % 4 + 1]
	}
	print "*"
}' > "$T/many.pgn"
for rules in asian chinese; do
	limited 20 512 "$XQKIT" validate --rules $rules "$T/many.pgn"
	expect_status 0
	expect_err "ply 400000"
	# Its 116 MB of text are not kept.
	limited 20 512 sh -c 'exec "$0" "$@" > /dev/null' "$XQKIT" replay --rules $rules \
		--board none "$T/many.pgn"
	expect_status 0
done
