#!/bin/sh
# tests/fuzz/run.sh: run libFuzzer targets (built by `make fuzz`) one after
# the other, each for SECONDS (default 300) over a scratch copy of its seed
# corpus, niced, and print one line a target: executions, coverage (cov:
# edges, ft: features) and what it found.  Every input runs under the
# CPU-time limit of tests/fuzz/slow.h (the same as the replay in `make
# check`), which the targets carry themselves: a slow input aborts and is
# a crash-* finding.  A crash, leak or slow input is kept as
# FINDINGS/<target>-<kind>-<hash> (default ./fuzz-findings); nothing in the
# source tree is changed (to grow a corpus, see README.md: -merge=1).
#
# Usage: tests/fuzz/run.sh [-t SECONDS] [-o FINDINGS] [TARGET...]
#        (TARGET: pgn, write_xqf, ...; none: every target built)
set -u
secs=300
findings=./fuzz-findings
while getopts t:o: opt; do
	case $opt in
	t) secs=$OPTARG ;;
	o) findings=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-o FINDINGS] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- $(ls build/fuzz/ | sed -n 's/^fuzz_//p')
mkdir -p "$findings" || exit 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-fuzz.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The -max_len of each target (README.md, Targets); 8192 for the others.
max_len() {
	case $1 in
	notation | date) echo 64 ;;
	fen | ecco) echo 256 ;;
	engine_line) echo 1024 ;;
	rules) echo 2048 ;;
	*) echo 8192 ;;
	esac
}

status=0
printf '%-14s %10s %8s %8s %s\n' target execs cov ft found
for t in "$@"; do
	bin=build/fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "$t: no $bin (make fuzz)"; status=1; continue; }
	work=$tmp/$t
	mkdir -p "$work/corpus" "$work/out"
	cp tests/fuzz/corpus/"$t"/* "$work/corpus/" 2> /dev/null
	# -timeout is wall-clock, for a hang that burns no CPU: far above the
	# CPU-time limit, as a niced run on a loaded machine waits for a core.
	nice "$bin" -max_len="$(max_len "$t")" -timeout=120 -rss_limit_mb=2048 \
		-max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$work/out/" \
		"$work/corpus" > "$work/log" 2>&1
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$work/log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	found=
	for a in "$work"/out/*; do
		[ -e "$a" ] || continue
		cp "$a" "$findings/$t-${a##*/}"
		found="$found ${a##*/}"
		status=1
	done
	printf '%-14s %10s %8s %8s %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${found:-none}"
	[ -n "$found" ] && tail -40 "$work/log" > "$findings/$t.log"
done
exit $status
