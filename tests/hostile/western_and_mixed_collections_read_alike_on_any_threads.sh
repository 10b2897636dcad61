# Windows-1252 was unknown: a cp1252 collection ([Event "Café Open – 2001"],
# ASCII moves) was read as GB18030 with every game broken, and no name of
# it was taken (issue 33).  A big Windows-1252 collection, and big UTF-8
# and Windows-1252 ones that hold games of the other encodings (and GBK),
# read whole and alike by -j 1 and -j 2 (whose chunk readers must decide
# each line as the reader of the whole file does); every name the error
# of an unknown one lists is taken.
west='[Event "Caf\351 Open \226 %d"]\n[Red "Andr\351 M\374ller"]\n[Black "J\366rg \305berg"]\n[Result "1-0"]\n\n1. h2e2 h9g7 2. h0g2 {tr\350s bien} 1-0\n\n'
gbk='[Event "\310\253\271\372\317\363\306\345 %d"]\n[Red "\302\300\307\325"]\n[Result "0-1"]\n\n1. \305\332\266\376\306\275\316\345 \302\355\260\313\275\370\306\337 0-1\n\n'
utf8='[Event "第二轮 %d"]\n[Red "许银川"]\n[Result "1/2-1/2"]\n\n1. 炮二平五 马８进７ 1/2-1/2\n\n'
i=1
while [ $i -le 10000 ]; do
	printf "$west" $i
	i=$((i + 1))
done > "$T/west.pgn"
i=1
while [ $i -le 4000 ]; do
	printf "$utf8$west$gbk" $i $i $i
	i=$((i + 1))
done > "$T/mixed-utf8.pgn"
i=1
while [ $i -le 2500 ]; do
	printf "$west$gbk$west$utf8" $i $i $i $i
	i=$((i + 1))
done > "$T/mixed-west.pgn"

for f in west mixed-utf8 mixed-west; do
	[ "$(wc -c < "$T/$f.pgn")" -gt 1048576 ] || fail "$f is too small to be cut for -j 2"
	for j in 1 2; do
		limited 60 1024 "$XQKIT" convert -q -t ndjson -j $j -o "$T/$f.$j.ndjson" "$T/$f.pgn"
		expect_status 0
		limited 60 1024 "$XQKIT" validate -j $j --format ndjson "$T/$f.pgn"
		grep -q '"broken_games":0,' "$T/out" || fail "$f -j $j: broken games: $(tail -1 "$T/out")"
		sed 's/"seconds":[0-9.]*//' "$T/out" > "$T/$f.report.$j"
	done
	expect_same "$T/$f.1.ndjson" "$T/$f.2.ndjson"
	expect_same "$T/$f.report.1" "$T/$f.report.2"
done
grep -q '"games":10000,' "$T/west.report.1" || fail "west.pgn: not 10000 games"
grep -q '"errors":0,"warnings":0,' "$T/west.report.1" || fail "west.pgn: not read as windows-1252 without a word"
grep -q '"encoding":"windows-1252"' "$T/west.report.1" || fail "west.pgn: not said to be windows-1252"
grep -q '"value":"Café Open – 10000"' "$T/west.1.ndjson" || fail "west.pgn: its Event is not decoded"
grep -q '"games":12000,' "$T/mixed-utf8.report.1" || fail "mixed-utf8.pgn: not 12000 games"
grep -q '"games":10000,' "$T/mixed-west.report.1" || fail "mixed-west.pgn: not 10000 games"
for f in mixed-utf8 mixed-west; do
	grep -q '"value":"全国象棋 2500"' "$T/$f.1.ndjson" || fail "$f.pgn: its GBK games are not decoded"
	grep -q '"value":"第二轮 2500"' "$T/$f.1.ndjson" || fail "$f.pgn: its UTF-8 games are not decoded"
	grep -q '"value":"Jörg Åberg"' "$T/$f.1.ndjson" || fail "$f.pgn: its Western games are not decoded"
done

# Every name the message of an unknown one lists is taken.
limited 10 256 "$XQKIT" validate --input-encoding klingon "$T/west.pgn"
expect_status 2
names=$(sed -n "s/.*: name \(.*\), or another that 'iconv -l' lists.*/\1/p" "$T/err" | tr -d '(),')
[ -n "$names" ] || fail "the message lists no names"
for n in $names; do
	limited 10 256 "$XQKIT" validate -q --input-encoding "$n" "$T/west.pgn"
	[ "$status" != 2 ] || fail "--input-encoding $n is refused"
done
exit 0
