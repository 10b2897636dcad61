# Games that never end, coming down a pipe, each long (a quarter of a
# million plies, just under the PGN limit for one game, so a game is still
# being read when the signal comes): every command that reads them stops
# within 2 s of SIGINT (exit 130) or SIGTERM (143), whatever it was doing
# (it takes well under 200 ms on an idle machine), and leaves no output and
# no temporary file.  validate and replay used to die by the signal's
# default action without a word; convert and annotate ignored it until
# killed; find and dedupe stop the same way.  (One game without end is
# stopped by the limit; see LIMITS in xqkit(1).)
# One such game, written once: the feed repeats it with cat, which costs
# far less than a shell loop printing every line (the test's CPU time).
awk 'BEGIN { printf "[Event \"endless\"]\n\n"
	for (i = 0; i < 60000; i++) print "b0c2 b9c7 c2b0 c7b9"
	printf "*\n\n" }' > "$T/game" || fail "awk"
game=$T/game

# Every command, then perft, under one signal, in a folder of its own.
under_signal() {
	sig=$1 want=$2
	T=$T/$sig
	mkdir "$T" && mkfifo "$T/feed" || fail "mkfifo"
	for cmd in "validate" "validate -j 2" "replay" "convert -t pgn -o $T/c.pgn" \
		"convert -t ndjson -j 2 -o $T/c.ndjson" "annotate --depth 1 -o $T/a.pgn" \
		"find --count --fen 4k4/9/9/9/9/9/9/9/9/3K5" "find -t pgn -o $T/f.pgn" "dedupe" \
		"stats -j 2 --tree --book $T/s.book"; do
		# (cat fails when the reader is gone, which ends the loop.)
		while cat "$game"; do :; done > "$T/feed" 2> /dev/null &
		feeder=$!
		interrupt $sig 0.3 "$XQKIT" $cmd --from pgn - < "$T/feed"
		echo "xqkit $cmd: SIG$sig -> $status in $elapsed ms"
		expect_status $want
		expect_within 2000
		expect_err "interrupted"
		[ -e "$T/c.pgn" ] || [ -e "$T/c.ndjson" ] || [ -e "$T/a.pgn" ] || [ -e "$T/f.pgn" ] ||
			[ -e "$T/s.book" ] &&
			fail "$cmd: an output was left behind"
		no_temp_files "$T"
		kill $feeder 2> /dev/null
		wait $feeder 2> /dev/null
	done
	# perft reads nothing and writes no file: the default action ends it,
	# with the same statuses.
	interrupt_uncaught=1
	for jobs in 1 2; do
		interrupt $sig 0.3 "$XQKIT" perft -j $jobs 12 < /dev/null
		echo "xqkit perft -j $jobs: SIG$sig -> $status in $elapsed ms"
		expect_status $want
		expect_within 2000
	done
}

# The two signals side by side (the case mostly waits), each logged.
(under_signal INT 130) > "$T/int.log" 2>&1 &
int_run=$!
(under_signal TERM 143) > "$T/term.log" 2>&1 &
term_run=$!
wait $int_run
int_status=$?
wait $term_run
term_status=$?
cat "$T/int.log" "$T/term.log"
[ $int_status = 0 ] && [ $term_status = 0 ] || fail "a signal was not obeyed (above)"
