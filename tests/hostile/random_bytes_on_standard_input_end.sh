# Random bytes without end on standard input (issue 14, finding 9).  No
# format claims them; read as DhtmlXQ (which looks for records anywhere in
# any text) they hold no record: 16 MiB end the reading, with one report
# for the bytes that are not text, not one per byte (1.6 million reports
# and 775 MB before).
limited 10 256 sh -c 'exec "$@" < /dev/urandom' sh "$XQKIT" validate -
expect_status 1
expect_err "no record format recognises it"

# One run in 256 the random bytes start with '{', which NDJSON's probe took
# for a JSON object: endless broken records, until the time limit.
limited 10 256 sh -c '{ printf "{"; cat /dev/urandom; } | exec "$@"' sh "$XQKIT" validate -
expect_status 1
expect_err "no record format recognises it"

limited 10 256 sh -c 'cat /dev/urandom | exec "$@"' sh "$XQKIT" validate --from dhtmlxq -
expect_status 1
expect_err "more than 16 MiB of input from here hold no DhtmlXQ record; the rest of the input is not read"
[ "$(wc -l < "$T/err")" -le 6 ] || fail "more than 6 lines of diagnostics"
exit 0
