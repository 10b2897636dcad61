#!/bin/sh
# convert -o DIR/ --sync: what reaches the disk when, counted from the
# system calls (strace).  For G games written as G new files:
#
#   each   G fsyncs (every file before it takes its name), then one syncfs
#          and the directory's fsync at the end;
#   end    (the default) no fsync of a file, one syncfs and the
#          directory's fsync at the end;
#   none   no fsync, no syncfs;
#
# and with --force over the files of an earlier run, end syncs each file
# it replaces before the rename (a crash leaves the old file or the new
# one, never an empty one), so G fsyncs again.  One output file is synced
# before it takes its name under each and end, not under none.
#
# Usage: tests/sync.sh [path/to/xqkit]   (needs strace)
set -u
. "$(dirname "$0")/lib.sh"
xqkit=${1:-${XQKIT:-./xqkit}}
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
data=$(cd "$(dirname "$0")/data" && pwd)
command -v strace > /dev/null || skip sync "needs strace (apt-get install strace)"
T=$(test_tmpdir sync) || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
input=$data/ndjson/dates.ndjson
# LeakSanitizer cannot work under ptrace: the leak checks are the other tests'.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
games=$("$xqkit" validate -q --format ndjson "$input" | tail -1 | sed -n 's/.*"games":\([0-9]*\).*/\1/p')

# calls NAME ARGS...: run `xqkit convert ARGS...` under strace; sets
# $fsyncs and $syncfs.
calls() {
	name=$1
	shift
	strace -f -qq -e trace=fsync,syncfs -o "$T/trace" "$xqkit" convert -q "$@" > /dev/null 2>&1 ||
		{ echo "FAIL sync: $name: convert $* failed (or strace cannot trace here)"; fails=$((fails + 1)); }
	fsyncs=$(grep -c ' fsync(' "$T/trace")
	syncfs=$(grep -c ' syncfs(' "$T/trace")
}

expect() { # NAME FSYNCS SYNCFS
	if [ "$fsyncs" != "$2" ] || [ "$syncfs" != "$3" ]; then
		echo "FAIL sync: $1: $fsyncs fsync and $syncfs syncfs, expected $2 and $3"
		fails=$((fails + 1))
	fi
}

calls each -t pgn --sync each -o "$T/each/" "$input"
expect "--sync each" $((games + 1)) 1
calls end -t pgn -o "$T/end/" "$input"
expect "--sync end (the default)" 1 1
[ "$(ls "$T/end" | wc -l)" = "$games" ] || { echo "FAIL sync: --sync end: not $games files"; fails=$((fails + 1)); }
calls none -t pgn --sync none -o "$T/none/" "$input"
expect "--sync none" 0 0
calls "end, replacing" -t pgn --force -o "$T/end/" "$input"
expect "--sync end replacing every file with --force" $((games + 1)) 1
calls "one file" -t pgn -o "$T/one.pgn" "$input"
expect "one output file, --sync end" 1 0
calls "one file, none" -t pgn --sync none -o "$T/none.pgn" "$input"
expect "one output file, --sync none" 0 0

if [ "$fails" -ne 0 ]; then
	echo "sync: $fails failed"
	exit 1
fi
echo "sync: --sync each, end and none make the system calls they say ($games games)"
