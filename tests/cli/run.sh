#!/bin/sh
# Golden tests for the command line.  Each case is a directory
# tests/cli/<command>/<case>/ holding:
#   args             one argument per line (after "xqkit"); @TMP@ in an
#                    argument stands for the case's own empty temporary folder
#   stdin            optional: fed to standard input (else /dev/null)
#   env              optional: NAME=VALUE lines added to the environment
#   before.files/    optional: copied into @TMP@ before the run (an existing
#                    output, an earlier run's file to resume)
#   expected.out     expected standard output (absent = must be empty)
#   expected.err     expected standard error (absent = must be empty)
#   expected.status  expected exit status (absent = 0)
#   expected.files/  optional: exactly the files the case must leave in @TMP@,
#                    compared byte for byte; with no such folder, @TMP@ must
#                    be left empty
#   normalize        optional sed script applied to both outputs first
#                    (for figures that change from run to run, e.g. times)
# In standard output and error the temporary folder's path reads @TMP@.
# Cases run from the top of the repository, each with its own temporary
# folder (under $TMPDIR, else /tmp) that is removed afterwards; the run
# fails if a case changed anything git tracks or sees in the source tree.
# With XQ_GOLDEN_UPDATE=1 a failing case's expected files are rewritten
# from what the run gave (review the change with git diff before committing).
# Usage: run.sh path/to/xqkit [case-dir...]
set -u
xqkit=$1
shift
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-cli.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0 fail=0
if [ $# -eq 0 ]; then
	set -- $(find tests/cli -mindepth 2 -maxdepth 2 -type d | sort)
fi
tree_state() {
	if command -v git > /dev/null 2>&1 && git rev-parse --git-dir > /dev/null 2>&1; then
		git status --porcelain --untracked-files=all 2> /dev/null
	fi
}
tree_state > "$tmp/tree.before"
# Escape a string for use as the left side of a sed s||| command.
sed_escape() { printf '%s\n' "$1" | sed -e 's/[]\/$*.^|[]/\\&/g'; }
for dir in "$@"; do
	[ -f "$dir/args" ] || continue
	case_tmp=$tmp/case
	rm -rf "$case_tmp"
	mkdir "$case_tmp" || exit 3
	if [ -d "$dir/before.files" ]; then
		cp -R "$dir/before.files/." "$case_tmp/" || exit 3
	fi
	in=/dev/null
	[ -f "$dir/stdin" ] && in=$dir/stdin
	# Build "$@" from the args file, one argument per line.
	set --
	while IFS= read -r a || [ -n "$a" ]; do
		case $a in *@TMP@*) a=$(printf '%s' "$a" | sed "s|@TMP@|$(sed_escape "$case_tmp")|g") ;; esac
		set -- "$@" "$a"
	done < "$dir/args"
	if [ -f "$dir/env" ]; then
		(
			while IFS= read -r kv || [ -n "$kv" ]; do
				[ -n "$kv" ] && export "${kv%%=*}=${kv#*=}"
			done < "$dir/env"
			exec "$xqkit" "$@"
		) < "$in" > "$tmp/out" 2> "$tmp/err"
	else
		"$xqkit" "$@" < "$in" > "$tmp/out" 2> "$tmp/err"
	fi
	status=$?
	want_status=0
	[ -f "$dir/expected.status" ] && want_status=$(cat "$dir/expected.status")
	esc=$(sed_escape "$case_tmp")
	for s in out err; do
		sed "s|$esc|@TMP@|g" "$tmp/$s" > "$tmp/$s.t"
		if [ -f "$dir/normalize" ]; then
			sed -f "$dir/normalize" "$tmp/$s.t" > "$tmp/$s.n"
		else
			mv "$tmp/$s.t" "$tmp/$s.n"
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
	# The files written: exactly expected.files/, byte for byte.
	if [ -d "$dir/expected.files" ]; then
		if ! diff -r "$dir/expected.files" "$case_tmp" > "$tmp/files.diff" 2>&1; then
			echo "FAIL $dir: the files written differ from expected.files/:"
			head -40 "$tmp/files.diff"
			ok=0
		fi
	elif [ -n "$(ls -A "$case_tmp")" ]; then
		echo "FAIL $dir: files written but no expected.files/: $(ls -A "$case_tmp" | head -5 | tr '\n' ' ')"
		ok=0
	fi
	if [ $ok = 0 ] && [ "${XQ_GOLDEN_UPDATE:-}" = 1 ]; then
		for s in out err; do
			if [ -s "$tmp/$s.n" ]; then cp "$tmp/$s.n" "$dir/expected.$s"; else rm -f "$dir/expected.$s"; fi
		done
		[ "$status" = "$want_status" ] || echo "$status" > "$dir/expected.status"
		rm -rf "$dir/expected.files"
		if [ -n "$(ls -A "$case_tmp")" ]; then cp -R "$case_tmp" "$dir/expected.files"; fi
		echo "UPDATED $dir"
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
tree_state > "$tmp/tree.after"
if ! cmp -s "$tmp/tree.before" "$tmp/tree.after"; then
	echo "FAIL: the cases changed the source tree:"
	diff "$tmp/tree.before" "$tmp/tree.after" | head -20
	fail=$((fail + 1))
fi
echo "cli tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
