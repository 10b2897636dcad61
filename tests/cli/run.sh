#!/bin/sh
# Golden tests for the command line.  Each case is a directory
# tests/cli/<command>/<case>/ holding:
#   args             one argument per line (after "xqkit")
#   stdin            optional: fed to standard input (else /dev/null)
#   expected.out     expected standard output (absent = must be empty)
#   expected.err     expected standard error (absent = must be empty)
#   expected.status  expected exit status (absent = 0)
#   normalize        optional sed script applied to both outputs first
#                    (for figures that change from run to run, e.g. times)
# Cases run from the top of the repository.  Usage: run.sh path/to/xqkit [case-dir...]
set -u
xqkit=$1
shift
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
if [ $# -eq 0 ]; then
	set -- $(find tests/cli -mindepth 2 -maxdepth 2 -type d | sort)
fi
for dir in "$@"; do
	[ -f "$dir/args" ] || continue
	in=/dev/null
	[ -f "$dir/stdin" ] && in=$dir/stdin
	# Build "$@" from the args file, one argument per line.
	set --
	while IFS= read -r a || [ -n "$a" ]; do set -- "$@" "$a"; done < "$dir/args"
	"$xqkit" "$@" < "$in" > "$tmp/out" 2> "$tmp/err"
	status=$?
	want_status=0
	[ -f "$dir/expected.status" ] && want_status=$(cat "$dir/expected.status")
	for s in out err; do
		if [ -f "$dir/normalize" ]; then
			sed -f "$dir/normalize" "$tmp/$s" > "$tmp/$s.n"
		else
			cp "$tmp/$s" "$tmp/$s.n"
		fi
		if [ -f "$dir/expected.$s" ]; then cp "$dir/expected.$s" "$tmp/want.$s"; else : > "$tmp/want.$s"; fi
	done
	ok=1
	[ "$status" = "$want_status" ] || { echo "FAIL $dir: exit status $status, expected $want_status"; ok=0; }
	for s in out err; do
		if ! cmp -s "$tmp/want.$s" "$tmp/$s.n"; then
			echo "FAIL $dir: std$s differs:"
			diff -u "$tmp/want.$s" "$tmp/$s.n" | head -40
			ok=0
		fi
	done
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "cli tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
