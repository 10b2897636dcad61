# 240 MB of <Move .../> elements gzip to under 1 MB; libxml2's tree of one
# took over 5.9 GB.  Each is refused at the CBF limit (8 MiB) on eight
# threads, and a document of moves just under the limit is read within
# the memory limit (no tree is built).
head='<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0"><Head></Head><MoveList><Move value="00-00"/>'
tail='</MoveList></ChineseChessRecord>'
moves() { # $1 legal moves: the horses b0c2 b9c7 c2b0 c7b9, again and again
	awk -v n="$1" 'BEGIN { split("19-27 10-22 27-19 22-10", m, " ")
		for (i = 0; i < n; i++) printf "<Move value=\"%s\"/>", m[i % 4 + 1] }'
}
moves 50000 > "$T/moves" || fail "cannot build the moves"
{
	printf '%s' "$head"
	for i in $(seq 240); do cat "$T/moves"; done
	printf '%s\n' "$tail"
} | gzip -9 > "$T/bomb.cbf.gz" || fail "cannot build the bomb"
for i in 1 2 3 4 5 6 7; do cp "$T/bomb.cbf.gz" "$T/bomb$i.cbf.gz"; done
limited 60 400 "$XQKIT" validate -j 8 "$T"/bomb*.cbf.gz
expect_status 1
expect_err "the input is larger than 8 MiB, the cbf format's limit for one record; not read [resource]"
[ "$(grep -c '\[resource\]' "$T/err")" = 8 ] || fail "not every bomb was refused"
# Just under the limit: 7 MiB of moves read whole.
{
	printf '%s' "$head"
	moves 350000
	printf '%s\n' "$tail"
} > "$T/big.cbf"
limited 60 400 "$XQKIT" convert -q -t ndjson -o "$T/big.ndjson" "$T/big.cbf"
expect_status 0
[ "$(grep -o '"iccs"' "$T/big.ndjson" | wc -l)" = 350000 ] || fail "the 350000 moves were not all read"
