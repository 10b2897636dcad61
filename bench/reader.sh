#!/bin/sh
# Single-thread reading speed: `xqkit validate -q -j 1` of one big UTF-8
# PGN file, every check kept (each move checked legal, the result, the
# repetition and move-limit rules, the tags), in MB/s of the input.
#
# The file is the shared corpus's PGN files read as UTF-8, each once
# (corpus_pgn of bench/lib.sh), repeated up to SIZE_MB megabytes.  Two
# builds are compared in the same run, in turn (A B A B ...), so that a
# change in the machine's load falls on both: XQKIT (default ./xqkit)
# against BASE, a peer binary, or against BASE_REV, a git revision built
# here in a temporary worktree (default HEAD~1 when neither is set).
# The figures are the medians of RUNS runs of the whole process (wall, and
# CPU = user + system, which swings far less with load: trust it on a busy
# machine); MB/s is of the CPU time.  With CALLGRIND=1 each build is also
# run once under valgrind's callgrind on a tenth of the file, and the
# instruction counts are printed: they do not depend on the load at all.
# The outputs of both builds (NDJSON report, less the timing) are compared
# byte for byte, and a difference stops the benchmark.
#
# Usage: bench/reader.sh [RUNS] [SIZE_MB]   (defaults 5 and 33; needs
#        /usr/bin/time, ../shared or $XQ_SHARED; BENCH_DIR=DIR keeps the
#        files it builds in DIR)
set -eu
runs=${1:-5}
size_mb=${2:-33}
. bench/lib.sh
bench_corpus reader

base=${BASE:-}
if [ -z "$base" ]; then
	rev=${BASE_REV:-HEAD~1}
	git worktree add -q --detach "$work/src" "$rev" > /dev/null
	if [ -n "${BENCH_DIR:-}" ]; then
		trap 'git worktree remove --force "$work/src" 2> /dev/null || true' EXIT
	else
		trap 'git worktree remove --force "$work/src" 2> /dev/null || true; rm -rf "$work"' EXIT
	fi
	echo "building $rev ($(git rev-parse --short "$rev")) as the base..."
	make -C "$work/src" -j2 BUILD="$work/build" "$work/build/xqkit" > "$work/make.log" 2>&1 ||
		{ echo "could not build $rev (see $work/make.log)" >&2; exit 3; }
	base=$work/build/xqkit
	what="$rev"
else
	what="$base"
fi
[ -x "$base" ] || { echo "no base binary at $base" >&2; exit 3; }

corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
: > "$work/in.pgn"
while [ "$(wc -c < "$work/in.pgn")" -lt $((size_mb * 1000000)) ]; do
	cat "$work/one.pgn" >> "$work/in.pgn"
done
bytes=$(wc -c < "$work/in.pgn" | tr -d ' ')

# Same verdicts, byte for byte, before any figure is given.
for b in "$xqkit" "$base"; do
	"$b" validate -q -j 1 --format ndjson "$work/in.pgn" 2> /dev/null |
		sed 's/"seconds":[0-9.]*/"seconds":X/' > "$work/out.$(test "$b" = "$xqkit" && echo a || echo b)"
done
cmp -s "$work/out.a" "$work/out.b" ||
	{ echo "the two builds give different reports on the input; no figures" >&2; exit 1; }
games=$(grep -c '"schema":"xqkit.check/' "$work/out.a" || true)

: > "$work/a"
: > "$work/b"
i=0
while [ $i -lt "$runs" ]; do
	measure "$work/a" "$xqkit" validate -q -j 1 "$work/in.pgn"
	measure "$work/b" "$base" validate -q -j 1 "$work/in.pgn"
	i=$((i + 1))
done
set -- $(report "$work/a") $(report "$work/b")
echo "input: $bytes bytes of UTF-8 PGN, $games games; load average $(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
echo "medians of $runs runs in turn of validate -q -j 1 (wall, CPU = user + system):"
awk -v a="$1" -v ac="$2" -v ar="$3" -v b="$4" -v bc="$5" -v br="$6" -v n="$bytes" \
	-v xa="$xqkit" -v xb="$what" 'BEGIN {
	printf "  %-24s %7.3f s wall %7.3f s CPU %7.2f MB/s (CPU) %7.2f MB/s (wall) %6d KiB\n", xa, a, ac, n / ac / 1e6, n / a / 1e6, ar
	printf "  %-24s %7.3f s wall %7.3f s CPU %7.2f MB/s (CPU) %7.2f MB/s (wall) %6d KiB\n", xb, b, bc, n / bc / 1e6, n / b / 1e6, br
	printf "  speed-up: %.2fx in CPU time, %.2fx in wall time\n", bc / ac, b / a }'

if [ "${CALLGRIND:-0}" = 1 ] && command -v valgrind > /dev/null; then
	head -c $((bytes / 10)) "$work/in.pgn" > "$work/tenth.pgn"
	for b in "$xqkit" "$base"; do
		ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" validate -q -j 1 \
			"$work/tenth.pgn" 2>&1 > /dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
		if [ -n "$ir" ]; then
			awk -v x="$b" -v ir="$ir" -v n=$((bytes / 10)) 'BEGIN {
				printf "  callgrind %-24s %13d instructions, %6.1f per input byte\n", x, ir, ir / n }'
		else
			echo "  callgrind could not run $b (valgrind too old for its debug information?)"
		fi
	done
fi
