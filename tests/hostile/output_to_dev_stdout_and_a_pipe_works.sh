# -o /dev/stdout, and -o /dev/fd/N on a pipe (what a shell's >(gzip > x)
# gives), write the records there.  They used to fail: "already exists" or
# "cannot create a temporary file".
limited 30 512 "$XQKIT" convert -q -t pgn -o /dev/stdout samples/sample.xqf
expect_status 0
grep -q '^\[Event' "$T/out" || fail "-o /dev/stdout wrote nothing to standard output"
[ -e /dev/fd/3 ] 2> /dev/null || [ -d /dev/fd ] || skip "$CASE" "no /dev/fd here"
{ "$XQKIT" convert -q -t pgn -o /dev/fd/3 samples/sample.xqf 3>&1 1>&2 2> "$T/err2"; echo $? > "$T/status"; } |
	gzip > "$T/x.gz"
[ "$(cat "$T/status")" = 0 ] || { cat "$T/err2"; fail "-o /dev/fd/3 on a pipe: exit $(cat "$T/status")"; }
gzip -dc "$T/x.gz" | grep -q '^\[Event' || fail "nothing came down the pipe"
no_temp_files "$T"
