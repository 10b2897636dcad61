# /dev/zero read as PGN, DhtmlXQ or NDJSON ran for ever, silently (issue 14,
# finding 9).  Bytes that hold no game end the reading of their input after
# a limit (LIMITS in xqkit(1): NULs read as PGN are a broken game, and what
# is skipped after it is held to 16 MiB; DhtmlXQ text around records to 16
# MiB; an NDJSON line to 12 MiB, and 16 MiB more skipped to its end), with
# a diagnostic that names the place; the next input is read.
printf '[Event "x"]\n\n1. h2e2 h9g7 *\n' > "$T/good.pgn"
limited 10 256 "$XQKIT" convert -t pgn --from pgn -o "$T/z.pgn" /dev/zero "$T/good.pgn"
expect_status 1
expect_err "/dev/zero:1:"
expect_err "more than 16 MiB skipped since line 1 without reaching the next game"
expect_err "the rest of the input is not read [resource]"
expect_err "1 game from 2 files"
grep -q 'h2e2\|炮二平五' "$T/z.pgn" || fail "the game of the second file was not written"

limited 10 256 "$XQKIT" validate --from pgn /dev/zero "$T/good.pgn"
expect_status 1
grep -q "^2 files, 1 game" "$T/err" || fail "the second file was not read"

limited 10 256 "$XQKIT" validate --from dhtmlxq /dev/zero
expect_status 1
expect_err "/dev/zero:1:1: error: more than 16 MiB of input from here hold no DhtmlXQ record"
expect_err "16842752 bytes outside the DhtmlXQ records are not text (the first, at offset 0, is a NUL byte); skipped"

limited 10 256 "$XQKIT" validate --from ndjson /dev/zero
expect_status 1
expect_err "the record is larger than 12 MiB, the ndjson format's limit for one record; it is skipped, and more than 16 MiB after the limit had no line end: the rest of the input is not read"
exit 0
