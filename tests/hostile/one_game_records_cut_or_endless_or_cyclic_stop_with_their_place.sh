# The one-game records of Chinese servers and programs (MXQ, CCM, CHN/XQI,
# CHE, XGF; formats/onegame.h), damaged: cut at many lengths, a length
# byte running past the end, a count of moves no record holds, followed by
# zeros without end, and CHN records whose saved addresses form a cycle.
# Every run ends with status 0 or 1 (never a crash, an internal error or a
# hang), every diagnostic names its byte, and an endless input stops at the
# format's 1 MiB limit.
D=tests/data/bin
for f in movesky.mxq:mxq 17pk.ccm:ccm ourgame.chn:chn ourgame.xqi:chn qqchess.che:che \
	xiexie.xgf:xgf; do
	file=$D/${f%%:*}
	fmt=${f#*:}
	size=$(wc -c < "$file")
	n=1
	while [ $n -lt "$size" ]; do
		head -c $n "$file" > "$T/cut"
		limited 10 256 "$XQKIT" validate --from $fmt "$T/cut"
		[ "$status" -le 1 ] || fail "$file cut to $n bytes: status $status"
		expect_no_err "[internal]"
		if grep -v -e '^[0-9]* file' -e '^[0-9]* \(error\|warning\|note\)' -e '^no problems' \
			"$T/err" | grep -v ': byte [0-9]*: ' | grep -q .; then
			fail "$file cut to $n bytes: a diagnostic without its byte: $(head -3 "$T/err")"
		fi
		n=$((n + 61))
	done
	# Followed by zeros for ever: read to the 1 MiB limit, not further.
	limited 10 256 sh -c 'cat "$1" /dev/zero | exec "$0" validate --from "$2" -' \
		"$XQKIT" "$file" $fmt
	expect_status 1
	expect_err "the input is larger than 1 MiB, the $fmt format's limit for one record; not read [resource]"
done

# A length byte past the end of an MXQ record.
printf '\377abc' > "$T/len.mxq"
limited 10 256 "$XQKIT" validate "$T/len.mxq" --from mxq
expect_status 1
expect_err "len.mxq: byte 0: error: game 1: the record ends inside its header [truncated]"

# A CCM header announcing 4,294,967,295 moves, then two.
{ printf '\001\000\022\000\000\000\000\000\377\377\377\377'; head -c 30 $D/17pk.ccm | tail -c 18; } > "$T/count.ccm"
limited 10 256 "$XQKIT" validate "$T/count.ccm"
expect_status 1
expect_err "count.ccm: byte 30: error: game 1: the record announces 4294967295 moves and ends after 2 [truncated]"

# CHN: every record's "next" address is the root's, and the root's "next"
# the last record's: a cycle.  The reader follows the file, not the
# addresses, so the game reads as before.
cp $D/ourgame.chn "$T/cycle.chn"
root=$(od -An -to1 -j $((0x1D8)) -N4 "$T/cycle.chn" | sed 's/ *\([0-7][0-7]*\)/\\\1/g')
i=0
while [ $i -lt 46 ]; do
	printf "$root" |
		dd of="$T/cycle.chn" bs=1 seek=$((0x1D8 + 36 * i + 8)) conv=notrunc 2>/dev/null
	i=$((i + 1))
done
limited 10 256 "$XQKIT" validate "$T/cycle.chn"
expect_status 0
grep -q "^1 file, 1 game, 45 plies" "$T/err" || fail "the cyclic CHN did not read its 45 plies: $(cat "$T/err")"
exit 0
