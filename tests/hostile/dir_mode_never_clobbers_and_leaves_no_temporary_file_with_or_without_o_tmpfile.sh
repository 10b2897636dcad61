# -o DIR/ with temporary files unnamed (O_TMPFILE, where the file system
# has it) and named (XQ_TEST_FAULT=named-temp: as on a file system
# without it): every game is written whole, a second run refuses every
# existing file and leaves it as it was (exit status 2, as for one file
# that exists), --force replaces them, and
# nothing is left under a temporary name.
in=tests/data/ndjson/dates.ndjson
games=$("$XQKIT" validate -q --format ndjson "$in" | tail -1 | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
[ "${games:-0}" -gt 1 ] || fail "no games in $in"
for way in unnamed named-temp; do
	fault=
	[ "$way" = named-temp ] && fault=named-temp
	out=$T/$way
	XQ_TEST_FAULT=$fault limited 30 512 "$XQKIT" convert -q -t pgn -o "$out/" "$in"
	expect_status 0
	[ "$(ls "$out" | wc -l)" = "$games" ] || fail "$way: $(ls "$out" | wc -l) files for $games games"
	cat "$out"/* > "$T/first.$way"
	for f in "$out"/*; do printf 'theirs\n' > "$f"; done
	XQ_TEST_FAULT=$fault limited 30 512 "$XQKIT" convert -q -t pgn -o "$out/" "$in"
	expect_status 2
	expect_err "already exists (use --force to replace it)"
	for f in "$out"/*; do
		[ "$(cat "$f")" = theirs ] || fail "$way: $f was replaced without --force"
	done
	XQ_TEST_FAULT=$fault limited 30 512 "$XQKIT" convert -q -t pgn --force -o "$out/" "$in"
	expect_status 0
	cat "$out"/* > "$T/forced.$way"
	expect_same "$T/first.$way" "$T/forced.$way"
	no_temp_files "$T"
done
expect_same "$T/first.unnamed" "$T/first.named-temp"
