#!/bin/sh
# A full disk must not look like success: with standard output on
# /dev/full every command that writes data exits with status 3 (I/O) and
# says so on standard error.  Usage: stdout-full.sh path/to/xqkit
set -u
. tests/lib.sh
xqkit=$1
[ -w /dev/full ] || skip stdout-full "no /dev/full here"
tmp=$(test_tmpdir full) || exit 3
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {
	"$xqkit" "$@" > /dev/full 2> "$tmp/err"
	status=$?
	if [ $status -ne 3 ] || ! grep -q "cannot write" "$tmp/err"; then
		echo "FAIL: xqkit $* > /dev/full: exit $status, expected 3 with a message"
		fail=1
	fi
}
check help
check perft --divide 3
check validate --format ndjson samples/liu-dahua-iccs.pgn
check replay samples/sample.xqf
check convert -t pgn samples/sample.xqf
# The summary must not claim that games were written.
"$xqkit" convert -t pgn samples/liu-dahua-iccs.pgn > /dev/full 2> "$tmp/err"
if ! grep -q "stopped, standard output is incomplete" "$tmp/err" ||
	grep -q "[1-9][0-9]* written" "$tmp/err"; then
	echo "FAIL: convert's summary on a full standard output:"
	cat "$tmp/err"
	fail=1
fi
[ $fail -eq 0 ] && echo "full standard output: every command exits 3"
exit $fail
