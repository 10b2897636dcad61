# dedupe kept about 77 bytes for every game, even those below --min-plies
# that it never compares (4.7 million tiny games: 368 MB), whatever
# --max-memory said, and when an allocation failed it ended with exit
# status 3 and not a word.  A game not compared now costs nothing; the
# games compared are sorted in a quarter of --max-memory and spilled to
# scratch files beyond it; running out of memory says what was being
# done.
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "[Event \"e%d\"]\n\n1. h2e2 *\n\n", i }' > "$T/tiny.pgn"
limited 30 64 "$XQKIT" dedupe "$T/tiny.pgn"
expect_status 1 # (no copies: grep's convention)
expect_err "dedupe: 1000000 games in 1 file, 0 of 10 plies or more compared"

# 600,000 copies of one game, compared in 2 MiB (--max-memory 8M): 38 MB
# of records, sorted in runs on disk and merged; one group.
awk 'BEGIN { for (i = 0; i < 600000; i++) printf "[Event \"e%d\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 5. c3c4 g6g5 *\n\n", i }' > "$T/copies.pgn"
limited 30 64 "$XQKIT" dedupe --max-memory 8M "$T/copies.pgn"
expect_status 0
expect_err "600000 of 10 plies or more compared: 1 group of the same game, 599999 duplicate copies"
[ "$(head -1 "$T/out")" = "group 1: 600000 copies" ] || fail "the group: $(head -1 "$T/out")"
[ "$(wc -l < "$T/out")" = 600001 ] || fail "$(wc -l < "$T/out") lines for the group"
no_temp_files "$T"

# The default budget's quarter does not fit in 64 MB of address space:
# out of memory, said with what was being done (no limit applies under
# the sanitizers).
if [ -z "${XQ_SANITIZE:-}" ]; then
	limited 30 64 "$XQKIT" dedupe "$T/copies.pgn"
	expect_status 3
	expect_err "xqkit: error: out of memory"
fi
