#!/bin/sh
# The one line a check ends with: how many tests ran, passed and were
# skipped, each skip by name, added up from what each part printed (the
# logs make keeps in RESULTS: see `record` in the Makefile).
#
# A part counts the tests it says it ran:
#   "N passed" (unit tests, golden cases, hostile cases, examples, browser),
#   "replayed N inputs" (a fuzz corpus), "N API tests" and "Ran N tests"
#   (the library's and the Python binding's, tests/install.sh);
# a part that says none of these is one test (a script that checks one
# thing and prints nothing when it holds).  A skip is a line
# "skipped: NAME: why" or "SKIP NAME: why"; a part that skipped as a whole
# counts as that one skip, not as a test passed.
#
# Usage: tests/summary.sh WHAT RESULTS NAME...
set -u
what=$1 results=$2
shift 2
run=0 skipped=0 fuzz=0 names="" missing=""
for name in "$@"; do
	log=$results/$name.log
	if [ ! -f "$log" ]; then
		missing="$missing $name"
		continue
	fi
	n=$(sed -n -e 's/.* \([0-9][0-9]*\) passed.*/\1/p' -e 's/.*replayed \([0-9][0-9]*\) inputs.*/\1/p' \
		-e 's/.* \([0-9][0-9]*\) API tests.*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	f=$(sed -n 's/.*replayed \([0-9][0-9]*\) inputs.*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	fuzz=$((fuzz + f))
	py=$(sed -n 's/.*Ran \([0-9][0-9]*\) tests.*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	n=$((n + py))
	s=$(grep -c -E '^(skipped: |SKIP )' "$log")
	for k in $(sed -n -e 's/^skipped: \([^:]*\):.*/\1/p' -e 's/^SKIP \([^:]*\):.*/\1/p' "$log" | tr ' ' '_'); do
		names="$names${names:+, }$k"
	done
	if [ "$n" -eq 0 ] && [ "$s" -eq 0 ]; then
		n=1
	fi
	run=$((run + n + s))
	skipped=$((skipped + s))
done
if [ -n "$missing" ]; then
	echo "$what: no results from:$missing" >&2
	exit 1
fi
line="$what: $run tests run"
[ "$fuzz" -gt 0 ] && line="$line ($fuzz of them fuzz corpus inputs replayed)"
line="$line, $((run - skipped)) passed, $skipped skipped"
[ "$skipped" -gt 0 ] && line="$line ($names)"
echo "$line"
