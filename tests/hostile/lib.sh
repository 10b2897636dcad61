# tests/hostile/lib.sh: helpers for the hostile-input cases (sourced).
#
# fail MESSAGE...             report the case failed and exit 1
# limited SECS MB CMD...      run CMD with its output in $T/out and $T/err,
#                             killed after SECS seconds of CPU time (so a
#                             loaded machine does not fail it) or 4 x SECS
#                             seconds of wall time (a hang that sleeps), its
#                             address space limited to MB megabytes (not
#                             under sanitizers); sets $status (137, or 152
#                             for SIGXCPU, when it was killed)
# expect_status N             the last `limited` command ended with status N
# expect_err TEXT             its standard error contains TEXT (fixed string)
# expect_no_err TEXT          ... does not contain it
# expect_same FILE1 FILE2     the two files hold the same bytes
# mode_of FILE                prints FILE's permission bits in octal (e.g. 600)
# interrupt SIG SECS CMD...   start CMD in the background (standard input:
#                             this shell's; output in $T/out and $T/err)
#                             with the default action for SIGINT, SIGTERM
#                             and SIGHUP (a shell starts background jobs
#                             with SIGINT ignored), send it SIG after SECS
#                             seconds, and wait; sets $status and $elapsed
#                             (milliseconds from the signal to its end).
#                             A command still running 5 s after the signal
#                             is killed and the case fails.
# expect_within MS            the last `interrupt` ended within MS ms of
#                             the signal (twice that under sanitizers)
# no_temp_files DIR           fails if DIR (and below) holds a temporary
#                             file of xqkit's (*xqkit-*)
# cycle_pgn N MOVES [FEN [RESULT]]
#                             prints a PGN game of N plies that plays the ICCS
#                             MOVES (space-separated) over and over, from FEN,
#                             ending in RESULT (default '*')
# every_format FILE [OPTION...]
#                             converts FILE to each writable format with
#                             --verify, then validates the output with OPTIONs,
#                             each command under `limited 20 512`, expecting 0

fail() {
	echo "FAIL $CASE: $*"
	exit 1
}

limited() {
	_secs=$1 _mb=$2
	shift 2
	if [ -n "${XQ_SANITIZE:-}" ]; then
		(ulimit -t "$_secs" && exec timeout -s KILL $((_secs * 4)) "$@") > "$T/out" 2> "$T/err"
	else
		(ulimit -v $((_mb * 1024)) && ulimit -t "$_secs" &&
			exec timeout -s KILL $((_secs * 4)) "$@") > "$T/out" 2> "$T/err"
	fi
	status=$?
}

expect_status() {
	[ "$status" = "$1" ] && return 0
	echo "--- stderr:"
	head -20 "$T/err"
	case $status in
	137 | 152) fail "exit status $status (killed: over its CPU or wall time limit), expected $1" ;;
	esac
	fail "exit status $status, expected $1"
}

expect_err() {
	grep -qF -- "$1" "$T/err" && return 0
	echo "--- stderr:"
	head -20 "$T/err"
	fail "standard error does not say '$1'"
}

expect_no_err() {
	grep -qF -- "$1" "$T/err" || return 0
	echo "--- stderr:"
	head -20 "$T/err"
	fail "standard error says '$1'"
}

expect_same() {
	cmp -s "$1" "$2" || fail "'$1' and '$2' differ"
}

mode_of() {
	stat -c %a "$1"
}

now_ms() {
	_t=$(date +%s%N)
	echo $((_t / 1000000))
}

# interrupt SIG SECS CMD...: run CMD in the background (standard input
# passed on), send it SIG after SECS seconds (fractions allowed), and wait
# for it: $status is its exit status, $elapsed the milliseconds from the
# signal to its end.  A watchdog kills it 5 s after the signal.
interrupt() {
	_sig=$1 _secs=$2
	shift 2
	env --default-signal=INT,TERM,HUP true 2> /dev/null ||
		skip "$CASE" "env --default-signal is missing (coreutils 8.31 or later)"
	exec 3<&0
	env --default-signal=INT,TERM,HUP "$@" <&3 > "$T/out" 2> "$T/err" &
	_pid=$!
	exec 3<&-
	# The signal is meant for a running command: on a loaded machine
	# starting it can take longer than $_secs, and a signal before its
	# handler is set ends it by the default action, without a word.  So
	# first wait (up to 3 s) until the process catches the signal
	# (SigCgt in /proc/PID/status), unless the caller set
	# interrupt_uncaught (a command that never catches it: perft).
	case ${interrupt_uncaught:+x}$_sig in
	x*) _mask=0 ;;
	HUP) _mask=1 ;;
	INT) _mask=2 ;;
	TERM) _mask=16384 ;;
	*) _mask=0 ;;
	esac
	_i=0
	while [ $_mask -ne 0 ] && [ $_i -lt 150 ] && [ -r "/proc/$_pid/status" ]; do
		# (the low 32 bits: shell arithmetic is signed)
		_cgt=$(sed -n 's/^SigCgt:[[:space:]]*[0-9a-f]\{8\}//p' "/proc/$_pid/status" 2> /dev/null)
		[ -n "$_cgt" ] && [ $(( 0x$_cgt & _mask )) -ne 0 ] && break
		sleep 0.02
		_i=$((_i + 1))
	done
	sleep "$_secs"
	_t0=$(now_ms)
	kill -"$_sig" "$_pid" 2> /dev/null
	# A watchdog: SIGKILL 5 s after the signal if it is still running.
	rm -f "$T/interrupt.done"
	(
		_i=0
		while [ $_i -lt 50 ] && [ ! -e "$T/interrupt.done" ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		[ -e "$T/interrupt.done" ] || kill -KILL "$_pid" 2> /dev/null
	) > /dev/null 2>&1 &
	_dog=$!
	wait "$_pid"
	status=$?
	elapsed=$(($(now_ms) - _t0))
	: > "$T/interrupt.done"
	kill $_dog 2> /dev/null
	wait $_dog 2> /dev/null
	rm -f "$T/interrupt.done"
	[ $status -ne 137 ] || fail "still running 5 s after SIG$_sig (killed)"
}

no_temp_files() {
	_left=$(find "$1" -name '*xqkit-*' 2> /dev/null | head -5)
	[ -z "$_left" ] || fail "temporary files left behind: $_left"
}

expect_within() {
	_max=$1
	# Sanitizers make everything slower; so does a machine under load.
	[ -n "${XQ_SANITIZE:-}" ] && _max=$((_max * 2))
	[ "$elapsed" -le "$_max" ] && return 0
	fail "it took $elapsed ms to stop after the signal (at most $_max expected)"
}

cycle_pgn() {
	awk -v n="$1" -v moves="$2" -v fen="${3:-}" -v result="${4:-*}" 'BEGIN {
		m = split(moves, cyc, " ")
		print "[Event \"cycle\"]"
		if (fen != "")
			print "[FEN \"" fen "\"]"
		if (result != "*")
			print "[Result \"" result "\"]"
		print ""
		for (k = 0; k < n; k++) {
			if (k % 2 == 0)
				printf "%d. ", k / 2 + 1
			printf "%s ", cyc[k % m + 1]
		}
		print result
	}'
}

every_format() {
	_in=$1
	shift
	for _to in pgn xqf dhtmlxq cbf ndjson; do
		limited 20 512 "$XQKIT" convert -q --verify -t $_to -o "$T/out.$_to" "$_in"
		expect_status 0
		limited 20 512 "$XQKIT" validate -q "$@" "$T/out.$_to"
		expect_status 0
	done
}
