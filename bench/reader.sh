#!/bin/sh
# Single-thread reading speed: `xqkit validate -q -j 1` of one big UTF-8
# PGN file, every check kept (each move checked legal, the result, the
# repetition and move-limit rules, the tags), in MB/s of the input, and
# against zcat of the same bytes gzipped (the floor of reading them).
#
# Two files, each SIZE_MB megabytes of the shared corpus's PGN games:
#   mix      the corpus's PGN files read as UTF-8, each once (corpus_pgn of
#            bench/lib.sh), as they are: ICCS, WXF and Chinese notation;
#   chinese  the same games converted to Chinese notation (炮二平五 马８进７),
#            what most Chinese collections hold, by XQKIT.
# Two builds are compared in the same run, in turn with zcat (A B Z A B Z
# ...), so that a change in the machine's load falls on all three: XQKIT
# (default ./xqkit) against BASE, a peer binary, or against BASE_REV, a git
# revision built here in a temporary worktree (default HEAD~1 when neither
# is set).  The figures are the medians of RUNS runs of the whole process
# (wall, and CPU = user + system, which swings far less with load: trust
# it on a busy machine); MB/s is of the CPU time, and "x zcat" the CPU time
# over zcat's.  The load average is printed before and after.  With
# CALLGRIND=1 each build is also run once under valgrind's callgrind on a
# tenth of each file, and zcat's gzip -dc of it, and the instruction counts
# are printed: they do not depend on the load at all.  The outputs of both
# builds (NDJSON report, less the timing) are compared byte for byte, and a
# difference stops the benchmark.
#
# Usage: bench/reader.sh [RUNS] [SIZE_MB]   (defaults 5 and 30; needs
#        /usr/bin/time, zcat, ../shared or $XQ_SHARED; BENCH_DIR=DIR keeps
#        the files it builds in DIR)
set -eu
runs=${1:-5}
size_mb=${2:-30}
. bench/lib.sh
bench_corpus reader
command -v zcat > /dev/null && command -v gzip > /dev/null ||
	{ echo "needs gzip and zcat" >&2; exit 3; }

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

# repeat SRC OUT: SRC over and over, up to SIZE_MB megabytes.
repeat() {
	: > "$2"
	while [ "$(wc -c < "$2")" -lt $((size_mb * 1000000)) ]; do
		cat "$1" >> "$2"
	done
}

corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
"$xqkit" convert -q -t pgn --notation chinese -o "$work/one-zh.pgn" "$work/one.pgn" 2> /dev/null || true
[ -s "$work/one-zh.pgn" ] || { echo "could not make the Chinese-notation file" >&2; exit 1; }
repeat "$work/one.pgn" "$work/mix.pgn"
repeat "$work/one-zh.pgn" "$work/chinese.pgn"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"

# bench NAME: both builds and zcat on $work/NAME.pgn.
bench() {
	f=$work/$1.pgn
	gzip -c "$f" > "$f.gz"
	bytes=$(wc -c < "$f" | tr -d ' ')
	# Same verdicts, byte for byte, before any figure is given.
	for b in "$xqkit" "$base"; do
		"$b" validate -q -j 1 --format ndjson "$f" 2> /dev/null |
			sed 's/"seconds":[0-9.]*/"seconds":X/' > "$work/out.$(test "$b" = "$xqkit" && echo a || echo b)"
	done
	cmp -s "$work/out.a" "$work/out.b" ||
		{ echo "$1: the two builds give different reports; no figures" >&2; exit 1; }
	games=$(grep -c '"schema":"xqkit.check/' "$work/out.a" || true)
	: > "$work/a"
	: > "$work/b"
	: > "$work/z"
	i=0
	while [ $i -lt "$runs" ]; do
		measure "$work/a" "$xqkit" validate -q -j 1 "$f"
		measure "$work/b" "$base" validate -q -j 1 "$f"
		measure "$work/z" zcat "$f.gz"
		i=$((i + 1))
	done
	set -- "$1" $(report "$work/a") $(report "$work/b") $(report "$work/z")
	echo "$1: $bytes bytes of UTF-8 PGN, $games games ($(wc -c < "$f.gz" | tr -d ' ') gzipped)"
	echo "  medians of $runs runs in turn of validate -q -j 1 and zcat (wall, CPU = user + system):"
	awk -v a="$2" -v ac="$3" -v ar="$4" -v b="$5" -v bc="$6" -v br="$7" -v z="$8" -v zc="$9" \
		-v n="$bytes" -v xa="$xqkit" -v xb="$what" 'BEGIN {
		zc = zc > 0 ? zc : 0.005
		printf "    %-22s %7.3f s wall %7.3f s CPU %7.2f MB/s (CPU) %7.2f MB/s (wall) %5.2fx zcat %6d KiB\n", xa, a, ac, n / ac / 1e6, n / a / 1e6, ac / zc, ar
		printf "    %-22s %7.3f s wall %7.3f s CPU %7.2f MB/s (CPU) %7.2f MB/s (wall) %5.2fx zcat %6d KiB\n", xb, b, bc, n / bc / 1e6, n / b / 1e6, bc / zc, br
		printf "    %-22s %7.3f s wall %7.3f s CPU %7.2f MB/s (CPU)\n", "zcat", z, zc, n / zc / 1e6
		printf "    speed-up: %.2fx in CPU time, %.2fx in wall time\n", bc / ac, b / a }'
	if [ "${CALLGRIND:-0}" = 1 ] && command -v valgrind > /dev/null; then
		head -c $((bytes / 10)) "$f" > "$work/tenth.pgn"
		gzip -c "$work/tenth.pgn" > "$work/tenth.pgn.gz"
		for b in "$xqkit" "$base" gzip; do
			if [ "$b" = gzip ]; then
				set -- gzip -dc "$work/tenth.pgn.gz"
			else
				set -- "$b" validate -q -j 1 "$work/tenth.pgn"
			fi
			ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
				sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
			if [ -n "$ir" ]; then
				awk -v x="$1" -v ir="$ir" -v n=$((bytes / 10)) 'BEGIN {
					printf "    callgrind %-22s %13d instructions, %6.1f per input byte\n", x, ir, ir / n }'
			else
				echo "    callgrind could not run $1 (valgrind too old for its debug information?)"
			fi
		done
	fi
}
bench mix
bench chinese
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
