# A record without the [DhtmlXQ] wrapper, cut inside its first tag: read as
# an empty record at the same place again and again, for ever, in every
# command; convert -o grew its temporary file by 30 MB/s (issue 14,
# finding 1).  It is no record: a warning, and the reading ends.
printf '[DhtmlXQ_' > "$T/h.ubb"
limited 10 256 "$XQKIT" validate -q "$T/h.ubb"
expect_status 1
expect_err "'[DhtmlXQ_' that opens no element; not interpreted"
expect_err "no DhtmlXQ record in the input"
[ "$(wc -l < "$T/err")" -le 4 ] || fail "more than 4 lines of diagnostics"

limited 10 256 sh -c 'printf "[DhtmlXQ_" | exec "$@"' sh "$XQKIT" validate -
expect_status 1
expect_err "'[DhtmlXQ_' that opens no element"

limited 10 256 "$XQKIT" convert -t pgn -o "$T/out.pgn" "$T/h.ubb"
expect_status 1
expect_err "the input holds no game [no-game]"
[ -s "$T/out.pgn" ] && fail "a game was written"
[ "$(ls -A "$T" | grep -c xqkit)" -eq 0 ] || fail "a temporary file was left"
exit 0
