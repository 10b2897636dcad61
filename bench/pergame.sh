#!/bin/sh
# One file per game against one file: `xqkit convert -t pgn` of the same
# games to one output file and to -o DIR/ under each --sync (each: every
# file synced before it takes its name, as xqkit did before --sync; end,
# the default: one syncfs and a directory fsync when the run ends; none),
# run in turn A B C D A B C D ... (bench/lib.sh), each -o DIR/ run into a
# fresh folder.  Reports the medians of wall and CPU time and each one's
# ratio to the one-file run; the goal of --sync end is a wall ratio within
# 2.  A `sync` after each run (untimed) keeps its writes out of the next
# run's syncfs.
#
# The folders are removed only when every run is done (BENCH_KEEP_REMOVING=1:
# after each run, as this script did before).  On ext4 without a journal
# (and ext2), creating a file skips every inode of its block group freed
# in the last minute (five when its inode table block is not yet written
# back): the kernel's recently_deleted(), one buffer lookup per freed
# inode, for each new file.  Removing the thousands of files of one run
# made every file of the next cost a scan past all of them: 150-350 us of
# system time per file, 3 to 5 times what the rest of writing it costs,
# and it is the removal that costs, not xqkit (a user who removes a big
# folder and converts again into the same file system at once pays it
# too; perf shows it as find_inode_bit / recently_deleted under openat).
#
# The games are the shared corpus's UTF-8 PGN games, repeated to GAMES
# (default 10000) in one input file, so that reading costs the same in
# every run and only the writing differs.  Wall time is what the disk
# costs (fsync is waiting, not CPU); syncfs waits for everything written
# to the file system, other people's writes too, so on a busy machine the
# figures of `end` and `each` swing: pair them, as this does.
#
# Usage: bench/pergame.sh [RUNS] [GAMES]   (defaults 5, 10000; needs
#        ../shared or $XQ_SHARED; writes in $TMPDIR or BENCH_DIR)
set -eu
runs=${1:-5}
games=${2:-10000}
. bench/lib.sh
bench_corpus pergame

# The UTF-8 PGN files of the corpus, repeated to at least GAMES games.
corpus_pgn "$xqkit" "$corpus" "$work/once.pgn"
: > "$work/in.pgn"
n=0
while [ "$n" -lt "$games" ]; do
	cat "$work/once.pgn" >> "$work/in.pgn"
	n=$(games_in "$work/in.pgn")
done
rm -f "$work/once.pgn"

for m in one each end none; do : > "$work/t.$m"; done
i=0
while [ $i -lt "$runs" ]; do
	measure "$work/t.one" "$xqkit" convert -q -t pgn --force -o "$work/one.pgn" "$work/in.pgn"
	for m in each end none; do
		measure "$work/t.$m" "$xqkit" convert -q -t pgn --sync "$m" -o "$work/dir.$i.$m/" "$work/in.pgn"
		written=$(ls "$work/dir.$i.$m" | wc -l)
		[ -z "${BENCH_KEEP_REMOVING:-}" ] || rm -rf "$work/dir.$i.$m"
		sync # this run's writes are not the next run's to wait for
	done
	i=$((i + 1))
done
rm -rf "$work/one.pgn" "$work"/dir.*
set -- $(report "$work/t.one")
one_wall=$1 one_cpu=$2
echo "$n games ($(wc -c < "$work/in.pgn") bytes of PGN), $written files per -o DIR/ run, medians of $runs runs in turn:"
printf '  %-22s %7.2f s wall %7.2f s CPU\n' "one file" "$one_wall" "$one_cpu"
for m in each end none; do
	set -- $(report "$work/t.$m")
	awk -v m="$m" -v w="$1" -v c="$2" -v ow="$one_wall" -v oc="$one_cpu" 'BEGIN {
		printf "  %-22s %7.2f s wall %7.2f s CPU   %6.1fx the wall time of one file, %5.1fx its CPU time\n",
			"-o DIR/ --sync " m, w, c, w / ow, c / oc }'
done
