# A summary counts what really happened.  After a stop (a signal while an
# endless input is read) it said "from 0 files", and after writing to a
# full disk failed, "3 written": the file being read when the stop came
# counts, and only games that reached the output count as written, in
# the text summary and in the NDJSON one (doc/ndjson.md).
mkfifo "$T/feed" || fail "mkfifo"
feed() {
	yes '1. h2e2 h9g7 2. h0g2 *' > "$T/feed" 2> /dev/null &
}
for jobs in 1 2; do
	feed
	interrupt TERM 0.3 "$XQKIT" convert -t pgn --from pgn -j $jobs -o "$T/z.pgn" - < "$T/feed"
	expect_status 143
	expect_err "games from 1 file to pgn: stopped, 0 written"
	feed
	interrupt TERM 0.3 "$XQKIT" validate --from pgn -j $jobs - < "$T/feed"
	expect_status 143
	grep -q '^1 file, [1-9][0-9]* games' "$T/err" || fail "-j $jobs: validate's summary after a stop: $(tail -n 1 "$T/err")"
	feed
	interrupt TERM 0.3 "$XQKIT" convert -t pgn --from pgn -j $jobs --format ndjson -o "$T/z.pgn" - < "$T/feed"
	expect_status 143
	grep -q '"schema":"xqkit.summary/1".*"files":1,.*"written":0,' "$T/out" ||
		fail "-j $jobs: the NDJSON summary after a stop: $(tail -n 1 "$T/out")"
done
no_temp_files "$T"
[ -w /dev/full ] || skip "$CASE" "no /dev/full here"
# A few games: in a buffer that only the end flushes, which fails.
limited 30 512 "$XQKIT" convert -t pgn -o /dev/full samples/sample.xqf
expect_status 3
expect_err "cannot write '/dev/full'"
expect_err "1 game from 1 file to pgn: 0 written"
timeout 30 "$XQKIT" convert -t pgn samples/sample.xqf > /dev/full 2> "$T/err"
status=$?
expect_status 3
expect_err "1 game from 1 file to pgn: 0 written"
limited 30 512 "$XQKIT" convert -t pgn --format ndjson -o /dev/full samples/sample.xqf
expect_status 3
grep -q '"games":1,"written":0,' "$T/out" || fail "the NDJSON summary after /dev/full: $(tail -n 1 "$T/out")"
# Many games: a flush fails on the way, and the run stops there.
awk 'BEGIN { for (i = 1; i <= 3000; i++) printf "[Event \"g%d\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n", i }' > "$T/many.pgn"
limited 30 512 "$XQKIT" convert -t pgn -o /dev/full "$T/many.pgn"
expect_status 3
expect_err "from 1 file to pgn: stopped, 0 written"
expect_no_err "3000 games"
# annotate: games annotated are not games kept when the output failed.
limited 60 512 "$XQKIT" annotate --depth 1 -o /dev/full tests/data/annotate/short.pgn
expect_status 3
expect_err "cannot write '/dev/full': No space left on device"
expect_err "2 annotated, 0 written and kept"
limited 60 512 "$XQKIT" annotate --depth 1 -t ndjson --format ndjson -o /dev/full tests/data/annotate/short.pgn
expect_status 3
grep -q '"annotated":2,"copied":0,"written":0,' "$T/out" || fail "annotate's NDJSON summary after /dev/full: $(tail -n 1 "$T/out")"
