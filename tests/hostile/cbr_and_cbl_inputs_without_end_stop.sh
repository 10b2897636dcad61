# CCBridge records and libraries followed by bytes without end (issue 14,
# finding 9): a move tree of empty nodes, bytes after a whole record, a
# library with no record, a compressed library whose zlib stream is empty
# blocks for ever.  Each stops at its limit (LIMITS in xqkit(1)) with a
# diagnostic naming the place.
rec=tests/data/cbr/test.cbr
limited 10 256 sh -c 'head -c 2214 "$1" | cat - /dev/zero | exec "$0" validate --from cbr -' \
	"$XQKIT" "$rec"
expect_status 1
expect_err "<stdin>: byte 0: error: game 1: record 1 is larger than 4 MiB, the cbr format's limit for one record; not read [resource]"

limited 10 256 sh -c 'cat "$1" /dev/zero | exec "$0" validate --from cbr -' "$XQKIT" "$rec"
expect_status 1
expect_err "more than 16 MiB after the end of the move tree are not read; reading stopped there [resource]"
grep -q "^1 file, 1 game" "$T/err" || fail "the record itself was not read"

# A CBL header (version 3, no index) and zeros.
printf 'CCBridgeLibrary\000\003\000\000\000' > "$T/lib"
head -c $((66624 - 20)) /dev/zero >> "$T/lib"
limited 10 256 sh -c 'cat "$1" /dev/zero | exec "$0" validate --from cbl -' "$XQKIT" "$T/lib"
expect_status 1
expect_err "<stdin>: byte 66624: error: more than 16 MiB from here hold no record; the rest of the input is not read [resource]"

# "CCBridge", version 21, deflate, 100 bytes inflated; a zlib header, then
# empty stored blocks (5 bytes each, nothing inflated) for ever.
printf 'CCBridge\025\000\000\000\001\000\000\000\144\000\000\000\170\001' > "$T/cbz"
i=0
while [ $i -lt 13107 ]; do printf '\000\000\000\377\377'; i=$((i + 1)); done > "$T/blocks"
limited 10 256 sh -c '{ cat "$1"; while cat "$2"; do :; done; } | exec "$0" validate --from cbl -' \
	"$XQKIT" "$T/cbz" "$T/blocks"
expect_status 1
expect_err "the compressed data part runs more than 16 MiB past the size it inflates to; the rest of the input is not read [resource]"
exit 0
