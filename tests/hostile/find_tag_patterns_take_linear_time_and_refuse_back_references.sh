# find --tag 'Name~REGEX' on a tag of almost a mebibyte (the most a PGN tag line may
# hold).  glibc's regexec() made `x.*y` quadratic in the tag (40 KB took
# 2 s; this one would take half an hour) and back-references exponential
# ('(.*)(.*)(.*)\3\2\1x' on 1,000 bytes ran for 19 minutes), and
# regcomp() of '(a{1,1000}){1,1000}' grew to 3 GB: the matcher of
# cmd/pattern.c reads the tag once, refuses back-references and counts
# over 255, and stops at 1000 steps, each refusal a usage error naming its
# place.
awk 'BEGIN {
	printf "[Red \""
	for (i = 0; i < 16383; i++) printf "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	printf "\"]\n\n1. h2e2 h9g7 *\n"
}' > "$T/long-tag.pgn" || fail "awk"

# A pattern that does not match: the whole tag is read, once.
limited 10 256 "$XQKIT" find --count --tag 'Red!~x.*y' "$T/long-tag.pgn"
expect_status 0
grep -qx 1 "$T/out" || fail "the game was not found: $(cat "$T/out")"
limited 10 256 "$XQKIT" find --count --tag 'Red!~(.*)(.*)(.*)(.*)z' "$T/long-tag.pgn"
expect_status 0

# Back-references cannot be matched in linear time: refused at their place.
limited 10 256 "$XQKIT" find --count --tag 'Red~(.*)(.*)(.*)\3\2\1x' "$T/long-tag.pgn"
expect_status 2
expect_err "at character 17: back-references"

# Counts that would write out a million steps: refused before any memory.
limited 10 256 "$XQKIT" find --count --tag 'Red~(a{1,1000}){1,1000}' "$T/long-tag.pgn"
expect_status 2
expect_err "a repetition count is at most 255"
limited 10 256 "$XQKIT" find --count --tag 'Red~(a{1,255}){1,255}' "$T/long-tag.pgn"
expect_status 2
expect_err "the pattern is too big"
