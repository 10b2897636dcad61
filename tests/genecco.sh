#!/bin/sh
# The ECCO rules file (lib/ecco_rules.txt) is read by tools/genecco.c when
# xqkit is built: a mistake in it must stop the build with the file, line
# and column and what was expected there, never give a table that reads
# the rule some other way; and the rules as shipped give the table the
# build compiled.  (Whether a table is well formed as a whole is
# xqi_ecco_check()'s, in test_ecco.)
# Usage: genecco.sh path/to/xqkit   (genecco is built beside it)
set -u
. tests/lib.sh
genecco=$(dirname "$1")/genecco
[ -x "$genecco" ] || { echo "FAIL genecco: no $genecco (built with xqkit)"; exit 1; }
tmp=$(test_tmpdir genecco) || exit 3
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# refused WHAT EXPECTED LINE...: the rules LINE... (one per argument) are
# refused with exit status 1 and a message that holds EXPECTED.
refused() {
	what=$1 expected=$2
	shift 2
	n=$((n + 1))
	printf '%s\n' "$@" > "$tmp/rules.txt"
	"$genecco" "$tmp/rules.txt" > "$tmp/out" 2> "$tmp/err"
	status=$?
	if [ $status -ne 1 ] || ! grep -qF -- "$expected" "$tmp/err"; then
		echo "FAIL genecco: $what: exit $status, expected 1 and '$expected'; said:"
		sed 's/^/  /' "$tmp/err"
		fail=1
	fi
}

f=$tmp/rules.txt
refused "an answer leading to no rule" "$f:2:25: error: no rule is labelled 'NOWHERE'" \
	'# a comment, then the rule' 'ROOT  at red 1: C2.5 -> NOWHERE; else A00'
refused "a label given twice" "$f:2:1: error: the label ROOT is already the rule of line 1" \
	'ROOT  at red 1: C2.5 -> A01; else A00' 'ROOT  at red 2: C2.5 -> A01; else A00'
refused "a label with the shape of a code" "$f:1:1: error: expected a label" \
	'C45  at red 1: C2.5 -> A01; else A00'
refused "a move that is not WXF" "$f:1:17: error: expected an answer: MOVES -> TO" \
	'ROOT  at red 1: C2.0 -> A01; else A00'
refused "a move number past the 20 plies read" "$f:1:14: error: expected a move number, 1 to 10" \
	'ROOT  at red 11: C2.5 -> A01; else A00'
refused "a rule without else" "$f:1:29: error: expected an answer" \
	'ROOT  at red 1: C2.5 -> A01;'
refused "a scan without end" "$f:1:42: error: expected ';' between answers" \
	'ROOT  scan red 2-10: pass N2+3; else A00 A01'
refused "a test with two answers" "$f:1:31: error: expected else" \
	'ROOT  seq red 2: N2+3 -> A01; N8+7 -> A02; else A00'
refused "mark with two moves" "$f:1:32: error: expected one move only" \
	'ROOT  scan red 2-10: mark N2+3 N8+7; else A00; end A00'
refused "a span that runs backwards" "$f:1:17: error: expected the last move number, from the first, 5 to 10" \
	'ROOT  all red 5-2: N2+3 -> A01; else A00'
refused "words after the rule" "$f:1:39: error: expected the end of the rule after else" \
	'ROOT  at red 1: C2.5 -> A01; else A00 A02'
refused "no rules at all" "no rules" '# only a comment'

# The shipped rules give the table this build compiled into xqkit.
n=$((n + 1))
if ! "$genecco" lib/ecco_rules.txt > "$tmp/shipped.inc" 2> "$tmp/err"; then
	echo "FAIL genecco: the shipped rules are refused:"
	cat "$tmp/err"
	fail=1
elif ! cmp -s "$tmp/shipped.inc" "$(dirname "$1")/gen/ecco_rules.inc"; then
	echo "FAIL genecco: the shipped rules do not give the table the build compiled"
	fail=1
fi

[ $fail -eq 0 ] && echo "genecco: $n cases passed (mistakes named by line and column, the shipped rules read)"
exit $fail
