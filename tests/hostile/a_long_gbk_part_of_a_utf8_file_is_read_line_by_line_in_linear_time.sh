# A UTF-8 collection with a long GBK part joined after it (issue 14,
# finding 8): the input is UTF-8 by its start, so every GBK line is
# decided on alone and read in GB18030 (two readings tried, one kept).
# 100,000 such games, each with its one warning, in linear time and flat
# memory; -j 2 reads them in chunks to the same report (exit status 1:
# the warnings).
LC_ALL=C awk 'BEGIN {
	for (i = 0; i < 1000; i++)
		printf "[Event \"\344\270\255\345\233\275\"]\n\n1. h2e2 h9g7 {\345\245\275} *\n\n"
	for (i = 0; i < 100000; i++)
		printf "[Event \"\310\253\271\372\317\363\306\345\"]\n\n1. \305\332\266\376\306\275\316\345 *\n\n"
}' > "$T/joined.pgn"
limited 60 256 "$XQKIT" validate --format ndjson "$T/joined.pgn"
expect_status 1
[ "$(grep -c '"message":"this line is gb18030, not utf-8 like the input' "$T/out")" = 100000 ] ||
	fail "not one warning for each of the 100000 GBK games"
grep -q '"games":101000,.*"plies":102000,' "$T/out" || fail "not every game read: $(tail -1 "$T/out")"
mv "$T/out" "$T/one"
limited 60 256 "$XQKIT" validate --format ndjson -j 2 "$T/joined.pgn"
expect_status 1
sed 's/"seconds":[0-9.]*//' "$T/one" > "$T/one.n"
sed 's/"seconds":[0-9.]*//' "$T/out" > "$T/two.n"
expect_same "$T/one.n" "$T/two.n"
