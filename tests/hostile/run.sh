#!/bin/sh
# tests/hostile: hostile input and careless use, each reproduction run under
# a time limit and a memory limit with its outcome asserted (exit status,
# diagnostic, files untouched, modes kept).
#
# A case is tests/hostile/<name>.sh, run by `sh` from the top of the
# repository with, in its environment:
#   XQKIT   the xqkit binary (an absolute path)
#   T       a fresh empty folder of its own, removed afterwards
# and tests/lib.sh and tests/hostile/lib.sh already sourced (fail, limited,
# expect_status, expect_err ...).  It exits 0 when the behaviour holds, and
# anything else (with a FAIL line saying why) when it does not; `skip` says
# why it cannot run here.  Each case is killed after $HOSTILE_TIMEOUT
# seconds (default 120) whatever it does, so a hang is a failure, never a
# stuck suite.  Memory limits (`limited`) are not applied under sanitizers
# (XQ_SANITIZE set), which reserve terabytes of address space.
#
# Usage: run.sh path/to/xqkit [case.sh...]
# (`make check-hostile` runs each case as a target of its own, in parallel.)
set -u
xqkit=$1
shift
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
[ $# -eq 0 ] && set -- $(ls tests/hostile/*.sh | grep -v -e '/run\.sh$' -e '/lib\.sh$')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-hostile.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0 fail=0
for case_file in "$@"; do
	name=${case_file##*/}
	name=${name%.sh}
	T=$tmp/$name
	mkdir "$T" || exit 3
	XQKIT=$xqkit T=$T CASE=$name timeout -s KILL "${HOSTILE_TIMEOUT:-120}" \
		sh -c '. tests/lib.sh; . tests/hostile/lib.sh; . "$0"' "$case_file" > "$tmp/log" 2>&1
	status=$?
	chmod -R u+rwx "$T" 2> /dev/null
	rm -rf "$T"
	if [ $status -eq 0 ]; then
		pass=$((pass + 1))
		grep '^skipped:' "$tmp/log"
	else
		fail=$((fail + 1))
		[ $status -eq 137 ] && echo "FAIL $name: killed after ${HOSTILE_TIMEOUT:-120} s"
		sed 's/^/  /' "$tmp/log" | tail -30
		grep -q "^FAIL" "$tmp/log" || echo "FAIL $name: exit status $status"
	fi
done
# HOSTILE_QUIET (set by make, which runs one case per target and counts
# them itself): only failures and skips are said.
[ -z "${HOSTILE_QUIET:-}" ] || [ $fail -ne 0 ] || exit 0
echo "hostile input: $pass passed, $fail failed"
[ $fail -eq 0 ]
