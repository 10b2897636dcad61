#!/bin/sh
# convert of one big PGN on several threads writes what one thread writes,
# though its chunks are read with game numbers and lines counted from each
# chunk's start (late numbering, <xq/batch.h>) and the games are written on
# the workers before their numbers are known: NDJSON's "source" (game,
# line) is put right as each game is emitted, and a broken game kept with
# --keep-broken, whose error names its line, is written only then.
#
# The input is a sample and test files repeated past 160 KiB, damaged games
# among them, cut into chunks of 8 games or 8 KiB from 16 KiB on
# (XQ_TEST_SPLIT, cmd/input_opts.c; without it only files of 1 MiB and more
# are cut, into chunks of 64 games), so that a few hundred games make
# dozens of chunks.  For -j 2 and -j 4 against -j 1, byte for byte (run
# times aside): standard output, standard error, the exit status, and the
# files written under -o DIR/.
#
# Usage: tests/split-numbers.sh [path/to/xqkit]
set -u
. "$(dirname "$0")/lib.sh"
xqkit=${1:-${XQKIT:-./xqkit}}
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
data=$(cd "$(dirname "$0")/data" && pwd)
samples=$(cd "$(dirname "$0")/../samples" && pwd)
T=$(test_tmpdir split-numbers) || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
fails=0 checks=0

: > "$T/big.pgn"
export XQ_TEST_SPLIT=16384,8,8192
while [ "$(wc -c < "$T/big.pgn")" -lt 165000 ]; do
	cat "$samples/liu-dahua-iccs.pgn" "$data/mixed/stray-byte-in-utf8.pgn" \
		"$data/pgn/first-game-without-result.pgn" "$data/fix/broken.pgn" >> "$T/big.pgn"
	printf '\n' >> "$T/big.pgn"
done

# same NAME ARGS...: the command at -j 1, 2 and 4 (with -o DIR/ when ARGS
# end in "-o", into a fresh folder each time), compared with -j 1.
same() {
	name=$1
	shift
	for j in 1 2 4; do
		out=$T/$name.$j
		mkdir -p "$out.dir"
		case " $* " in
		*" -o ") "$xqkit" "$@" "$out.dir/" -j $j "$T/big.pgn" > "$out.stdout" 2> "$out.stderr" ;;
		*) "$xqkit" "$@" -j $j "$T/big.pgn" > "$out.stdout" 2> "$out.stderr" ;;
		esac
		echo $? > "$out.status"
		sed -e 's/([0-9.]* s)/(N s)/' -e 's/"seconds":[0-9.]*/"seconds":N/' "$out.stderr" > "$out.err"
		sed -e 's/"seconds":[0-9.]*/"seconds":N/' "$out.stdout" > "$out.out"
	done
	for j in 2 4; do
		checks=$((checks + 1))
		bad=0
		for s in out err status; do
			cmp -s "$T/$name.1.$s" "$T/$name.$j.$s" ||
				{ echo "FAIL split-numbers: $name: -j $j gives another $s than -j 1"; bad=1; }
		done
		diff -r "$T/$name.1.dir" "$T/$name.$j.dir" > /dev/null ||
			{ echo "FAIL split-numbers: $name: -j $j writes other files than -j 1"; bad=1; }
		fails=$((fails + bad))
	done
	# What the comparisons stand on: games numbered past the first
	# chunk's, kept broken games whose errors name lines far down.
	case $name in
	ndjson) grep -q '"game":[0-9]\{3\},' "$T/ndjson.1.stdout" ||
		{ echo "FAIL split-numbers: no game numbered over 99 in the NDJSON"; fails=$((fails + 1)); } ;;
	html-kept-per-game) grep -l 'line [0-9]\{4\}, column' "$T/$name.1.dir"/*.html > /dev/null ||
		{ echo "FAIL split-numbers: no kept broken game names a line over 999"; fails=$((fails + 1)); } ;;
	esac
	rm -rf "$T/$name".*
}

same ndjson convert -t ndjson
same ndjson-kept-verified convert -t ndjson --keep-broken --verify
same ndjson-report convert -t ndjson --keep-broken --format ndjson --sync none -o
same pgn-kept convert -t pgn --keep-broken
same html-kept-per-game convert -t html --keep-broken --sync none -o
same ndjson-per-game convert -t ndjson --sync none -o

if [ "$fails" -gt 0 ]; then
	echo "split-numbers: $fails of $checks comparisons failed"
	exit 1
fi
echo "split-numbers: $checks conversions of one big PGN at -j 2 and 4 write what -j 1 writes"
