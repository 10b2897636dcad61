# The readers of issue 36 on inputs without end or cut short: each stops
# at its limit (LIMITS in xqkit(1)) with a diagnostic naming the place,
# within its time and memory, and what came before is read.

# PFC: a line that goes deeper for ever (a move an element) stops at the
# 8 MiB a record may hold, before any parse.
limited 10 256 sh -c '{ printf "<n m=\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\">"; yes "<n m=\"h0g2\"><n m=\"h9g7\"><n m=\"g2h0\"><n m=\"g7h9\">"; } | exec "$0" validate --from pfc -' "$XQKIT"
expect_status 1
expect_err "<stdin>: error: the input is larger than 8 MiB, the pfc format's limit for one record; not read [resource]"

# PFC cut inside a tag: the moves before the cut are read, the game is broken.
printf '<n m="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w">\n<n m="h2e2">\n<n m="h9g7">\n<n m="h0' > "$T/cut.pfc"
limited 10 256 "$XQKIT" convert --keep-broken -t pgn --notation iccs "$T/cut.pfc"
expect_status 1
expect_err "cut.pfc:4:"
grep -q "1. h2e2 h9g7" "$T/out" || fail "the moves before the cut were not kept"

# A FEN list: a line without end stops at 1 MiB; blank lines without end at 16 MiB.
limited 10 256 sh -c '{ printf "3k5/9/9/9/9/9/9/9/9/4K4 w\n3k5/9/9/9/9/9/9/9/9/4K4 w "; yes comment | tr -d "\n"; } | exec "$0" validate --from fen -' "$XQKIT"
expect_status 1
expect_err "<stdin>:2: error: a line longer than 1048576 bytes (no record of this format has one); the rest of the input is not read [resource]"
grep -q "^1 file, 1 game" "$T/err" || fail "the position before the long line was not read"
limited 10 256 sh -c '{ printf "3k5/9/9/9/9/9/9/9/9/4K4 w\n"; yes ""; } | exec "$0" validate --from fen -' "$XQKIT"
expect_status 1
expect_err "error: more than 16 MiB from here hold no position; the rest of the input is not read [resource]"

# A text export: moves without end stop at the 1 MiB a game may hold; so
# does text without a move; blank lines without end at 16 MiB.
limited 10 256 sh -c '{ printf "a title\n"; yes "1. h0g2 h9g7 2. g2h0 g7h9"; } | exec "$0" validate --from text -' "$XQKIT"
expect_status 1
expect_err "error: game 1: a game is larger than 1 MiB, the text format's limit for one record; not read [resource]"
limited 10 256 sh -c '{ printf "标题：x\n"; yes "a comment line"; } | exec "$0" validate --from text -' "$XQKIT"
expect_status 1
expect_err "a game is larger than 1 MiB"
limited 10 256 sh -c 'yes "" | exec "$0" validate --from text -' "$XQKIT"
expect_status 1
expect_err "error: more than 16 MiB of blank lines and no game; the rest of the input is not read [resource]"

# A CCBridge export cut inside a character: the byte is said at its
# place, the moves before it are read.
printf '\357\273\277标题：x\n\n  1. 炮二平五 马８进７\n  2. 马二进三 车\351' > "$T/cut.txt"
limited 10 256 "$XQKIT" validate "$T/cut.txt"
expect_status 1
expect_err "cut.txt:4:12: error: game 1: byte 0xE9 at offset 67 is not valid utf-8"
exit 0
