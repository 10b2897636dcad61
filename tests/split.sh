#!/bin/sh
# One big input read on several threads must give exactly what reading it
# on one gives.  From the shared corpus (../shared/corpus, or
# $XQ_SHARED/corpus) this builds multi-game files: the corpus's PGN files
# concatenated by encoding (UTF-8, GB18030/GBK, Big5, as validate finds
# them), one of them repeated to SIZE_MB megabytes (default 55), and the
# NDJSON of all of them; then for each file it compares, byte for byte,
#
#   validate -j 1 / -j 2 / -j 4            (text report on standard error)
#   validate --format ndjson -j 1 / 2 / 4  (standard output)
#   convert -t ndjson -j 1 / 2 / 4         (standard output and error)
#
# (run times are taken out of the summaries), and the whole corpus the
# same way with -r, also converted to PGN (its games written on the
# workers and joined with blank lines as one writer would).  Last, the peak resident memory of validate -j 2 on the
# big file and on a file ten times its size (it must not grow with the
# input).  Prints a line per comparison; exit status 1 when any differs,
# 3 when the corpus or a tool is missing.
#
# Usage: tests/split.sh [path/to/xqkit] [SIZE_MB]   (BENCH_DIR=DIR keeps the
#        files it builds in DIR; /usr/bin/time for the memory figures)
set -u
xqkit=${1:-./xqkit}
size_mb=${2:-55}
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
corpus=${XQ_SHARED:-../shared}/corpus
[ -d "$corpus" ] || { echo "split.sh: no corpus at $corpus (set XQ_SHARED)" >&2; exit 3; }
[ -x "$xqkit" ] || { echo "split.sh: build xqkit first (make)" >&2; exit 3; }
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 3
else
	dir=$(mktemp -d) || exit 3
	trap 'rm -rf "$dir"' EXIT INT TERM
fi
status=0

# The PGN files of the corpus by the encoding validate finds, each once.
"$xqkit" validate -r -q --format ndjson "$corpus" 2>/dev/null |
	grep '"schema":"xqkit.check/1"' | grep '"format":"pgn"' |
	sed 's/.*"file":"\([^"]*\)".*"encoding":"\([^"]*\)".*/\2 \1/' | uniq |
	awk '!seen[$0]++' > "$dir/pgn-files"
for enc in utf-8 gb18030 big5; do
	grep "^$enc " "$dir/pgn-files" | cut -d' ' -f2- |
		while IFS= read -r f; do cat "$f"; echo; done > "$dir/corpus-$enc.pgn"
done
# The big one: UTF-8 repeated, and ten times that for the memory figure.
: > "$dir/big.pgn"
while [ "$(wc -c < "$dir/big.pgn")" -lt $((size_mb * 1000000)) ]; do
	cat "$dir/corpus-utf-8.pgn" >> "$dir/big.pgn"
done
cat "$dir/corpus-utf-8.pgn" "$dir/corpus-gb18030.pgn" "$dir/corpus-big5.pgn" |
	"$xqkit" convert -q -t ndjson - > "$dir/corpus.ndjson" 2>/dev/null

# run NAME ARGS...: the three thread counts, outputs normalized
run() {
	name=$1
	shift
	for j in 1 2 4; do
		"$xqkit" "$@" -j $j > "$dir/$name.$j.out" 2> "$dir/$name.$j.err"
		echo $? > "$dir/$name.$j.status"
		for s in out err; do
			sed -e 's/checked in [0-9.]* s/checked in N s/' -e 's/([0-9.]* s)/(N s)/' -e 's/"seconds":[0-9.]*/"seconds":N/' \
				"$dir/$name.$j.$s" > "$dir/$name.$j.$s.n"
		done
	done
	same=1
	for j in 2 4; do
		for s in out.n err.n status; do
			cmp -s "$dir/$name.1.$s" "$dir/$name.$j.$s" || same=0
		done
	done
	if [ $same = 1 ]; then
		printf '  %-34s same with -j 1, 2, 4 (exit %s)\n' "$name" "$(cat "$dir/$name.1.status")"
	else
		printf '  %-34s DIFFERENT\n' "$name"
		status=1
	fi
}

echo "== files ($dir)"
for f in corpus-utf-8.pgn corpus-gb18030.pgn corpus-big5.pgn big.pgn corpus.ndjson; do
	printf '  %-20s %10d bytes\n' "$f" "$(wc -c < "$dir/$f")"
done
echo "== one input, -j 1 against -j 2 and -j 4"
for f in corpus-utf-8.pgn corpus-gb18030.pgn corpus-big5.pgn big.pgn corpus.ndjson; do
	run "validate-$f" validate "$dir/$f"
	run "validate-ndjson-$f" validate --format ndjson "$dir/$f"
	run "convert-$f" convert -t ndjson "$dir/$f"
done
echo "== the whole corpus (-r)"
run validate-corpus validate -r "$corpus"
run validate-ndjson-corpus validate -r --format ndjson "$corpus"
run convert-corpus convert -r -t ndjson "$corpus"
run convert-pgn-corpus convert -r -t pgn "$corpus"

echo "== peak memory of validate -j 2"
if [ -x /usr/bin/time ]; then
	for k in 1 2 3 4 5 6 7 8 9 10; do cat "$dir/big.pgn"; done > "$dir/big10.pgn"
	for f in big.pgn big10.pgn; do
		/usr/bin/time -f '%M' -o "$dir/rss" "$xqkit" validate -q -j 2 "$dir/$f" > /dev/null 2>&1
		printf '  %-12s %6d MB input: %6d KB peak resident\n' "$f" \
			$(($(wc -c < "$dir/$f") / 1000000)) "$(tail -1 "$dir/rss")"
	done
	rm -f "$dir/big10.pgn"
else
	echo "  (no /usr/bin/time)"
fi
exit $status
