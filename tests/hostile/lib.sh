# tests/hostile/lib.sh: helpers for the hostile-input cases (sourced).
#
# fail MESSAGE...             report the case failed and exit 1
# limited SECS MB CMD...      run CMD with its output in $T/out and $T/err,
#                             killed after SECS seconds, its address space
#                             limited to MB megabytes (not under sanitizers);
#                             sets $status (137 when it was killed)
# expect_status N             the last `limited` command ended with status N
# expect_err TEXT             its standard error contains TEXT (fixed string)
# expect_no_err TEXT          ... does not contain it
# expect_same FILE1 FILE2     the two files hold the same bytes
# mode_of FILE                prints FILE's permission bits in octal (e.g. 600)
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
		timeout -s KILL "$_secs" "$@" > "$T/out" 2> "$T/err"
	else
		(ulimit -v $((_mb * 1024)) && exec timeout -s KILL "$_secs" "$@") > "$T/out" 2> "$T/err"
	fi
	status=$?
}

expect_status() {
	[ "$status" = "$1" ] && return 0
	echo "--- stderr:"
	head -20 "$T/err"
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
