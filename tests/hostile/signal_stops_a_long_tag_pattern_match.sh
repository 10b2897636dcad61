# find --tag with a pattern of many steps over a tag of almost a mebibyte
# takes seconds (linear, but a thousand steps a character).  The match
# asks every 4096 characters whether a signal came (glibc's regexec()
# could not be stopped at all), so SIGTERM ends find within a second, on
# one thread or two.
awk 'BEGIN {
	for (g = 0; g < 2; g++) {
		printf "[Red \""
		for (i = 0; i < 16383; i++) printf "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		printf "\"]\n\n1. h2e2 h9g7 *\n\n"
	}
}' > "$T/long-tag.pgn" || fail "awk"
for j in 1 2; do
	interrupt TERM 0.5 "$XQKIT" find -j $j --count --tag 'Red~(x|xx|xxx){1,80}y' "$T/long-tag.pgn"
	echo "find -j $j: SIGTERM -> $status in $elapsed ms"
	expect_status 143
	expect_within 1500 # (a second; half as much again for a loaded machine)
	expect_err "interrupted"
done
