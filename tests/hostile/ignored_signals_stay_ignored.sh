# A signal ignored when xqkit starts (nohup ignores SIGHUP) stays ignored:
# the run goes on, and another signal still stops it.  convert used to stop
# on SIGHUP under nohup.
mkfifo "$T/feed" || fail "mkfifo"
{
	while :; do printf '[Event "e"]\n\n1. h2e2 h9g7 *\n\n'; done
} > "$T/feed" 2> /dev/null &
(
	trap '' HUP
	exec "$XQKIT" convert -q -t pgn -o "$T/all.pgn" - < "$T/feed"
) > "$T/out" 2> "$T/err" &
pid=$!
sleep 0.5
kill -HUP $pid
sleep 0.5
kill -0 $pid 2> /dev/null || { wait $pid; fail "SIGHUP stopped it (status $?)"; }
kill -TERM $pid
wait $pid
status=$?
expect_status 143
[ -e "$T/all.pgn" ] && fail "the output was left behind"
no_temp_files "$T"
