#!/bin/sh
# N shards together are one run: for each way of dividing the work
# (--shard K/N by game of one big file, read on one thread and on two so
# that the file is cut into chunks; by input file of a folder with an
# operand that is missing), the K = 1..N runs of
#
#   validate --format ndjson   (diagnostics and checks on standard output)
#   validate                   (text diagnostics on standard error)
#   convert -t ndjson          (games on standard output, diagnostics on
#                               standard error)
#
# give together exactly the lines of one run (up to order), every
# diagnostic once with the place and game number of the whole input; the
# exit status of one run is the highest of the shards'; and their
# xqkit.summary/1 records merged by `xqkit merge-summaries` are one run's
# (the run time aside).
#
# Usage: tests/shard.sh [path/to/xqkit]
set -u
. "$(dirname "$0")/lib.sh"
xqkit=${1:-${XQKIT:-./xqkit}}
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
data=$(cd "$(dirname "$0")/data" && pwd)
T=$(test_tmpdir shard) || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
fails=0 checks=0

# One big PGN file with damaged games in it: the test files repeated past
# the size (1 MiB) from which -j 2 cuts one file into chunks.
: > "$T/big.pgn"
while [ "$(wc -c < "$T/big.pgn")" -lt 1300000 ]; do
	cat "$data/mixed/stray-byte-in-utf8.pgn" "$data/pgn/first-game-without-result.pgn" \
		"$data/pgn/utf8-bom-iccs.pgn" "$data/mixed/gbk-game-in-utf8.pgn" \
		"$data/pgn/wxf-fullwidth.pgn" >> "$T/big.pgn"
	printf '\n' >> "$T/big.pgn"
done

fail() {
	echo "FAIL shard: $*"
	fails=$((fails + 1))
}

# The lines of a run that are not its summary, sorted.
lines() {
	grep -v -e '"schema":"xqkit.summary/1"' -e '^[0-9][0-9]* files*, ' -e '^no problems found' \
		-e '^[0-9][0-9]* \(error\|warning\|note\)s*: ' -e '^convert: [0-9]* games* from ' "$@" |
		LC_ALL=C sort
}

# run ARGS...: xqkit, reading $STDIN (a file) when it is set, writing to
# $T/run.$OUT (-o) when $OUT is set.
run() {
	rm -f "$T/run.${OUT:-}"
	if [ -n "${OUT:-}" ]; then
		set -- "$@" -o "$T/run.$OUT"
	fi
	if [ -n "${STDIN:-}" ]; then
		"$xqkit" "$@" < "$STDIN"
	else
		"$xqkit" "$@"
	fi
}

# The records of the output file of the last run, if any, appended to $1.
keep_output() {
	if [ -n "${OUT:-}" ] && [ -f "$T/run.$OUT" ]; then
		cat "$T/run.$OUT" >> "$1"
	fi
}

# same NAME N ARGS...: the N shards of `xqkit ARGS...` against one run.
same() {
	name=$1 n=$2
	shift 2
	checks=$((checks + 1))
	: > "$T/one.file"
	: > "$T/all.file"
	run "$@" > "$T/one.out" 2> "$T/one.err"
	one=$?
	keep_output "$T/one.file"
	: > "$T/all.out"
	: > "$T/all.err"
	: > "$T/sums"
	worst=0
	k=1
	while [ "$k" -le "$n" ]; do
		run "$@" --shard "$k/$n" > "$T/k.out" 2> "$T/k.err"
		st=$?
		keep_output "$T/all.file"
		[ "$st" -gt "$worst" ] && worst=$st
		cat "$T/k.out" >> "$T/all.out"
		cat "$T/k.err" >> "$T/all.err"
		grep -h '"schema":"xqkit.summary/1"' "$T/k.out" >> "$T/sums"
		k=$((k + 1))
	done
	[ "$one" = "$worst" ] || fail "$name: one run exits $one, the shards at most $worst"
	lines "$T/one.out" > "$T/o"
	lines "$T/all.out" > "$T/b"
	cmp -s "$T/o" "$T/b" || { fail "$name: standard output differs"; diff "$T/o" "$T/b" | head -5; }
	LC_ALL=C sort "$T/one.file" > "$T/a"
	LC_ALL=C sort "$T/all.file" > "$T/b"
	cmp -s "$T/a" "$T/b" || { fail "$name: output files differ"; diff "$T/a" "$T/b" | head -5; }
	lines "$T/one.err" > "$T/e"
	lines "$T/all.err" > "$T/b"
	cmp -s "$T/e" "$T/b" || { fail "$name: standard error differs"; diff "$T/e" "$T/b" | head -5; }
	if grep -q '"schema":"xqkit.summary/1"' "$T/one.out"; then
		grep '"schema":"xqkit.summary/1"' "$T/one.out" | sed 's/"seconds":[0-9.]*/"seconds":S/' > "$T/a"
		"$xqkit" merge-summaries "$T/sums" | sed 's/"seconds":[0-9.]*/"seconds":S/' > "$T/b"
		cmp -s "$T/a" "$T/b" || { fail "$name: merged summaries differ"; diff "$T/a" "$T/b"; }
	fi
	[ -s "$T/o" ] || [ -s "$T/e" ] || fail "$name: nothing to compare"
}

for j in 1 2; do
	for n in $(seq $((4 - j)) 3); do
		same "validate ndjson, by game, -j $j, $n shards" $n validate --format ndjson -j $j "$T/big.pgn"
		same "validate text, by game, -j $j, $n shards" $n validate -j $j "$T/big.pgn"
		same "convert ndjson, by game, -j $j, $n shards" $n convert -t ndjson -j $j "$T/big.pgn"
		OUT=ndjson same "convert, summary in ndjson, by game, -j $j, $n shards" $n convert -t ndjson \
			--format ndjson -j $j "$T/big.pgn"
		OUT=
	done
	for n in 3; do
		same "validate ndjson, by file, -j $j, $n shards" $n validate --format ndjson -j $j -r \
			"$data/ndjson" "$T/missing.pgn" "$data/mixed"
		same "validate text, by file, -j $j, $n shards" $n validate -j $j -r \
			"$data/ndjson" "$T/missing.pgn" "$data/mixed"
		same "convert ndjson, by file, -j $j, $n shards" $n convert -t ndjson -j $j -r \
			"$data/ndjson" "$data/mixed"
	done
done
OUT=ndjson
same "annotate ndjson, by file, 3 shards" 3 annotate --depth 1 -t ndjson --format ndjson \
	"$data/ndjson/problems.ndjson" "$data/annotate/mates.pgn" "$data/html/three-games.pgn"
same "annotate ndjson, by game, 2 shards" 2 annotate --depth 1 -t ndjson --format ndjson \
	"$data/ndjson/problems.ndjson"
OUT=
same "validate ndjson, one game, 3 shards" 3 validate --format ndjson "$data/xqf/$(ls "$data/xqf" | head -1)"
STDIN=$data/ndjson/problems.ndjson same "validate ndjson, standard input by game, 2 shards" 2 \
	validate --format ndjson -

if [ "$fails" -ne 0 ]; then
	echo "shard: $fails of $checks comparisons failed"
	exit 1
fi
echo "shard: $checks comparisons of N shards against one run passed"
