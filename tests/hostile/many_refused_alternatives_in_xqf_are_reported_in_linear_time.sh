# 100,000 alternatives to one move in an XQF file, each followed by an
# illegal move.  Each refusal names the way to it ("c3c4[2917]"), and the
# alternative's number was counted by walking its siblings: quadratic
# (issue 14, finding 4).
command -v python3 > /dev/null || skip "$CASE" "needs python3 to damage the XQF records"
awk 'BEGIN {
	printf "[Event \"refused\"]\n\n1. h2e2 "
	for (i = 0; i < 100000; i++) printf "(1. c3c4 c6c5) "
	print "*"
}' > "$T/legal.pgn"
limited 20 512 "$XQKIT" convert -q -t xqf -o "$T/legal.xqf" "$T/legal.pgn"
expect_status 0
# XQF 1.0 records are 8 bytes: from, to, flags, 0, comment length.  c6c5
# (0x32 0x39) becomes c6c3 (0x32 0x37), which a pawn cannot play.
python3 - "$T/legal.xqf" "$T/refused.xqf" <<'PY' || fail "could not damage the file"
import re, sys
b = bytearray(open(sys.argv[1], 'rb').read())
n = 0
for m in re.finditer(rb'\x32\x39[\x00\x0f\xf0]\x00\x00\x00\x00\x00', bytes(b)):
    b[m.start() + 1] = 0x37
    n += 1
assert n == 100000, n
open(sys.argv[2], 'wb').write(b)
PY
limited 20 512 "$XQKIT" validate "$T/refused.xqf"
expect_status 1
expect_err "illegal move c6c3 at ply 2 after c3c4[100001]"
grep -q "illegal-move 100000" "$T/err" || fail "the summary does not count 100000 illegal moves"
