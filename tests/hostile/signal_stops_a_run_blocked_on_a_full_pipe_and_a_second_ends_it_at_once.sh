# convert -j 2 writing to a pipe that nobody reads: the thread that
# writes the games can be a worker, blocked in write() where no signal
# reaches it (the workers block them), and SIGTERM left xqkit running
# until SIGKILL.  The first signal now arms a deadline: a run not ended
# 0.9 s later is ended then, by that signal (exit 143).  A second signal
# ends it at once.
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "[Event \"e%d\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n", i }' > "$T/many.pgn"
mkfifo "$T/pipe" || fail "mkfifo"
# Something holds the pipe open and never reads.
(exec 3< "$T/pipe"; sleep 30) &
holder=$!
for j in 1 2; do
	interrupt TERM 1 sh -c 'exec "$0" convert -j "$1" -t pgn "$2" > "$3"' "$XQKIT" $j "$T/many.pgn" "$T/pipe"
	echo "convert -j $j to a full pipe: SIGTERM -> $status in $elapsed ms"
	expect_status 143
	expect_within 1500 # (a second; half as much again for a loaded machine)
done
# Two signals: the second ends it at once, well before the deadline.
env --default-signal=INT,TERM,HUP "$XQKIT" convert -j 2 -t pgn "$T/many.pgn" > "$T/pipe" 2> "$T/err" &
pid=$!
sleep 1
t0=$(now_ms)
kill -TERM $pid
sleep 0.1
kill -TERM $pid
wait $pid
status=$?
elapsed=$(($(now_ms) - t0))
echo "two signals: $status in $elapsed ms"
expect_status 143
[ "$elapsed" -lt 700 ] || fail "the second signal did not end it at once ($elapsed ms)"
expect_err "interrupted again: ended at once"
kill $holder 2> /dev/null
wait $holder 2> /dev/null
no_temp_files "$T"
