# tests/lib.sh: what the shell test scripts share (sourced, POSIX sh).
#
# skip NAME REASON...  says that test NAME cannot run here and why, and exits
#                      0; with XQ_TEST_NO_SKIP=1 (CI sets it) a skip is a
#                      failure instead (exit 1): there, what can run must run.
# test_tmpdir TAG      prints a fresh folder's path under $TMPDIR (else /tmp).
# find_fairy           prints Fairy-Stockfish's path, found the one documented
#                      way ($FAIRY_STOCKFISH, then `fairy-stockfish` on $PATH,
#                      then /usr/games/fairy-stockfish), or fails.
#
# Other tools a script needs (python3, rsvg-convert) are found on $PATH with
# `command -v`; without them the script skips.

skip() {
	_name=$1
	shift
	if [ -n "${XQ_TEST_NO_SKIP:-}" ] && [ "${XQ_TEST_NO_SKIP}" != 0 ]; then
		echo "FAIL $_name: skipped ($*), but XQ_TEST_NO_SKIP says everything must run"
		exit 1
	fi
	echo "skipped: $_name: $*"
	exit 0
}

test_tmpdir() {
	mktemp -d "${TMPDIR:-/tmp}/xqkit-$1.XXXXXX"
}

find_fairy() {
	if [ -n "${FAIRY_STOCKFISH:-}" ]; then
		[ -x "$FAIRY_STOCKFISH" ] && { echo "$FAIRY_STOCKFISH"; return 0; }
		return 1
	fi
	command -v fairy-stockfish 2> /dev/null && return 0
	[ -x /usr/games/fairy-stockfish ] && { echo /usr/games/fairy-stockfish; return 0; }
	return 1
}
