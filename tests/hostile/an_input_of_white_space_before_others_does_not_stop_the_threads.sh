# An input that holds nothing but white space, named before others and
# read on two threads, is an input with no game: the run goes on to the
# next.  Its unit never took its turn at the memory budget, so the
# worker of the next input that needed memory (a gzip PGN) waited for
# that turn for ever, and a signal could not stop it either.
printf '  \n\n' > "$T/blank.txt"
printf '[Event "a"]\n\n1. h2e2 h9g7 *\n' | gzip > "$T/one.pgn.gz"
limited 5 400 "$XQKIT" validate -j 2 "$T/blank.txt" "$T/one.pgn.gz"
expect_status 1
expect_err "blank.txt: error: the input holds no game [no-game]"
grep -q "^1 file, 1 game" "$T/err" || grep -q "^2 files, 1 game" "$T/err" ||
	fail "the gzip input after it was not read"
