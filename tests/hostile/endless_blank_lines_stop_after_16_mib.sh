# Blank lines without end, on standard input: nothing but white space was
# skipped for ever, silently (issue 14, finding 9).  16 MiB of them end the
# reading, with the line where it stopped; with -j 2 as well (the splitter
# scans ahead of the readers).
for j in 1 2; do
	limited 10 256 sh -c 'yes "" | exec "$@"' sh "$XQKIT" validate -j $j --from pgn -
	expect_status 1
	expect_err "<stdin>:16777218:1: error: more than 16 MiB of blank text up to here and no game"
	limited 10 256 sh -c 'yes "" | exec "$@"' sh "$XQKIT" validate -j $j --from ndjson -
	expect_status 1
	expect_err "more than 16 MiB of blank lines since line 1 and no record"
done
exit 0
