#!/bin/sh
# The replay of `make check` fails on a slow input and names it: the driver
# (standalone.c, slow.c) built with slow_selftest.c replays a folder of a
# fast input and one that spins, under a limit of 1 s of CPU.  A driver
# without the limit never ends here (the caller's timeout stops it).
# Usage: slow_selftest.sh path/to/replay_binary
set -u
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-slow.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/corpus"
printf 'fast' > "$tmp/corpus/fast"
printf 'spin' > "$tmp/corpus/spins-forever"
XQI_FUZZ_SLOW=1 "$bin" "$tmp/corpus" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "^slow input: $tmp/corpus/spins-forever runs for more than 1 s of CPU: a finding\$" "$tmp/err"; then
	echo "slow_selftest: a replay of an input that spins gave status $rc and:" >&2
	cat "$tmp/out" "$tmp/err" >&2
	exit 1
fi
echo "fuzz replay: a slow input is a finding (slow_selftest)"
