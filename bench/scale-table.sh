#!/bin/sh
# The scale table of issue 34: every command that reads games, over three
# inputs a user may have or a hostile one may send, at -j 1 and -j 2:
#   pgn    a PGN of SIZE GB (default 1): the shared corpus's UTF-8 PGN
#          games repeated, each copy's Event made its own (bench/lib.sh);
#   line   one NDJSON line of SIZE x 100 MB (a game whose Event tag is that
#          long), then a game: over the 12 MiB a line may hold, refused
#          while it is read, and the rest of the input is not read;
#   tiny   SIZE x 10,000,000 games of one ply each.
# Each command runs on each input at full size with -j 1 and -j 2, and at
# half size with -j 1, under /usr/bin/time (bench/lib.sh: wall and CPU
# seconds, peak resident KiB).  The table gives, for each row, the CPU
# time at half and full size and their ratio (2.00 is linear; a command
# whose work is bounded, as on `line`, stays near 1), and the wall time
# and peak RSS at -j 1 and -j 2; a row is "ok" when its ratio is at most
# 2.4 and both peaks are under 512 MB.  annotate analyses one game in a
# thousand (--shard 1/1000: every game is read, 0.1% analysed, at depth
# 1): its reading is what scales with the input.
#
# Usage: [SIZE=1] [XQKIT=./xqkit] bench/scale-table.sh
# Needs ../shared (or $XQ_SHARED) and /usr/bin/time; writes about
# 2 x SIZE GB in $TMPDIR (or BENCH_DIR, kept), removed at the end.  One
# run each (each is long: at SIZE=1 about an hour of CPU in all); on a
# loaded machine read the CPU columns, not the wall ones.
set -eu
size=${SIZE:-1}
. bench/lib.sh
bench_corpus scale-table

echo "building the inputs in $work (df: $(df -h "$work" | awk 'NR == 2 { print $4 }') free)" >&2
corpus_pgn "$xqkit" "$corpus" "$work/one.pgn"
per=$(games_in "$work/one.pgn")
bytes_per_game=$(($(wc -c < "$work/one.pgn") / per))

# pgn: SIZE GB, and half.
games=$(awk -v s="$size" -v b="$bytes_per_game" 'BEGIN { printf "%d", s * 1e9 / b }')
repeat_games "$games" "$work/one.pgn" "$per" "$work/pgn.full"
repeat_games $((games / 2)) "$work/one.pgn" "$per" "$work/pgn.half"

# line: one NDJSON line of SIZE x 100 MB, and half; then an ordinary game.
make_line() { # MB OUT
	awk -v mb="$1" 'BEGIN {
		s = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		k = s s s s s s s s s s
		printf "{\"schema\":\"xqkit.game/1\",\"tags\":{\"Event\":\""
		for (i = 0; i < mb * 1000; i++) printf "%s", k
		printf "\"},\"moves\":[]}\n"
	}' > "$2"
	"$xqkit" convert -q -t ndjson "$work/one.pgn" 2> /dev/null | head -1 >> "$2"
}
make_line "$(awk -v s="$size" 'BEGIN { print s * 100 }')" "$work/line.full"
make_line "$(awk -v s="$size" 'BEGIN { print s * 50 }')" "$work/line.half"

# tiny: SIZE x 10M one-ply games, and half.
make_tiny() { # N OUT
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "[Event \"t%d\"]\n\n1. h2e2 *\n\n", i }' > "$2"
}
tiny=$(awk -v s="$size" 'BEGIN { printf "%d", s * 10000000 }')
make_tiny "$tiny" "$work/tiny.full"
make_tiny $((tiny / 2)) "$work/tiny.half"
for f in pgn line tiny; do
	echo "  $f: $(wc -c < "$work/$f.full") bytes ($(wc -c < "$work/$f.half") at half size)" >&2
done

run_row() { # INPUT LABEL ARGS...
	_in=$1 _label=$2
	shift 2
	: > "$work/h1"; : > "$work/f1"; : > "$work/f2"
	measure "$work/h1" "$xqkit" "$@" -j 1 "$work/$_in.half"
	measure "$work/f1" "$xqkit" "$@" -j 1 "$work/$_in.full"
	measure "$work/f2" "$xqkit" "$@" -j 2 "$work/$_in.full"
	set -- $(report "$work/h1") $(report "$work/f1") $(report "$work/f2")
	awk -v inp="$_in" -v l="$_label" -v hc="$2" -v w1="$4" -v c1="$5" -v r1="$6" -v w2="$7" \
		-v r2="$9" 'BEGIN {
		ratio = hc > 0 ? c1 / hc : 0
		ok = ratio <= 2.4 && r1 < 512 * 1024 && r2 < 512 * 1024 ? "ok" : "FAIL"
		printf "%-5s %-26s %8.2f %8.2f %6.2f | %8.1f %8.0f | %8.1f %8.0f | %s\n",
			inp, l, hc, c1, ratio, w1, r1 / 1024, w2, r2 / 1024, ok }' | tee -a "$work/table"
}

: > "$work/table"
printf '%-5s %-26s %8s %8s %6s | %8s %8s | %8s %8s |\n' input command "CPU/2 s" "CPU s" ratio \
	"-j1 s" "-j1 MB" "-j2 s" "-j2 MB"
for in in pgn line tiny; do
	run_row $in "validate" validate -q
	run_row $in "convert -t ndjson" convert -q -t ndjson -o /dev/null
	run_row $in "convert -t html" convert -q -t html -o /dev/null
	run_row $in "find --tag Event~#1[0-9]*\$" find -q --count --tag 'Event~#1[0-9]*$'
	run_row $in "find -t pgn --result 1-0" find -q -t pgn --result 1-0 -o /dev/null
	run_row $in "dedupe" dedupe -q
	run_row $in "dedupe -t pgn" dedupe -q -t pgn -o /dev/null
	run_row $in "stats --by player" stats -q --by player
	run_row $in "stats --tree --depth 10" stats -q --tree --depth 10
	run_row $in "replay" replay -q
	run_row $in "annotate --shard 1/1000" annotate -q --depth 1 --shard 1/1000 -o /dev/null
done
echo "rows: $(grep -c . "$work/table"), $(grep -c 'ok$' "$work/table") ok (CPU: user + system; ratio: full / half size, 2.00 linear)"
