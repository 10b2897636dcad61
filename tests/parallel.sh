#!/bin/sh
# The GNU parallel recipes of man/xqkit-scale.7, run on this machine (two
# local job slots, -j2, stand in for the hosts of -S), each against one
# run of xqkit over the same input:
#
#   a folder by --shard          the lines of the shards sorted are one
#                                run's; merge-summaries gives its summary
#   annotate with --joblog and   a shard that failed is the only one run
#   --resume-failed              again; the parts and summaries merged are
#                                one run's
#   one big file by --shard      the same, by game
#   one big file by --pipepart   the games, problems and counts by code are
#   --recstart '[Event '         one run's (places, files and the run id are
#                                the blocks'); merged with --no-shard-check
#   the Slurm array job          its command for each task id, merged
#
# The recipes' commands are written here as the page gives them, with the
# built-in engine (--depth 1) for the external one and local paths.
#
# Usage: tests/parallel.sh [path/to/xqkit]   (needs GNU parallel)
set -u
. "$(dirname "$0")/lib.sh"
xqkit=${1:-${XQKIT:-./xqkit}}
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
data=$(cd "$(dirname "$0")/data" && pwd)
command -v parallel > /dev/null || skip parallel "needs GNU parallel (apt-get install parallel)"
parallel --version 2> /dev/null | grep -q 'GNU parallel' || skip parallel "parallel is not GNU parallel"
T=$(test_tmpdir parallel) || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
# parallel keeps its state under $HOME/.parallel: the test's own.
HOME=$T/home
export HOME
mkdir -p "$HOME/.parallel" && touch "$HOME/.parallel/will-cite"
# The recipes say `xqkit`: this one.
mkdir "$T/bin" && ln -s "$xqkit" "$T/bin/xqkit"
PATH=$T/bin:$PATH
export PATH
fails=0 checks=0

fail() {
	echo "FAIL parallel: $*"
	fails=$((fails + 1))
}

# Lines that are not summaries, sorted.
records() { grep -v '"schema":"xqkit.summary/1"' "$@" | LC_ALL=C sort; }
# The summary records, the run time left out.
summaries() { grep '"schema":"xqkit.summary/1"' "$@" | sed 's/"seconds":[0-9.]*/"seconds":S/'; }

# same NAME A B: files A and B hold the same bytes.
same() {
	checks=$((checks + 1))
	cmp -s "$2" "$3" || { fail "$1"; diff "$2" "$3" | head -5; }
	[ -s "$2" ] || fail "$1: nothing to compare"
}

# same_annotated WHO DIR: the parts DIR/part-*.ndjson are one run's annotated
# games, and the summaries DIR/summary-*.ndjson merged are its summary.
same_annotated() {
	LC_ALL=C sort one-annotated.ndjson > a
	cat "$2"/part-*.ndjson | LC_ALL=C sort > b
	same "$1: the parts are one run's annotated games" a b
	summaries one-summary.ndjson > a
	xqkit merge-summaries "$2"/summary-*.ndjson | summaries > b
	same "$1: the merged summary is one run's" a b
}

# A folder of records (damaged ones among them); one big PGN file whose
# games all start with [Event, a byte that is not UTF-8 in some (the test
# files repeated); and for annotate, whose exit status says whether a game
# was skipped, the games of it that read without an error.
mkdir "$T/records"
cp -r "$data/ndjson" "$data/mixed" "$data/pgn" "$data/xqf" "$T/records/"
: > "$T/big.pgn"
i=0
while [ $i -lt 60 ]; do
	cat "$data/html/three-games.pgn" "$data/annotate/mates.pgn"
	sed '/^\[Game /d' "$data/mixed/stray-byte-in-utf8.pgn"
	printf '\n'
	i=$((i + 1))
done > "$T/big.pgn"
i=0
while [ $i -lt 30 ]; do
	cat "$data/html/three-games.pgn" "$data/annotate/mates.pgn"
	i=$((i + 1))
done > "$T/games.pgn"
[ "$(grep -c '^\[Event ' "$T/big.pgn")" -gt 300 ] || fail "big.pgn: not every game starts with [Event"

# ---- a folder on N machines -----------------------------------------------
cd "$T" || exit 3
xqkit validate -r -q --format ndjson records > one.ndjson
seq 1 4 | parallel -j2 \
	'xqkit validate -r -q --format ndjson --shard {}/4 records' > validate.ndjson
records one.ndjson > a
records validate.ndjson > b
same "folder by --shard: the diagnostics and checks of 4 shards are one run's" a b
summaries one.ndjson > a
xqkit merge-summaries validate.ndjson | summaries > b
same "folder by --shard: the merged summary is one run's" a b

# ---- annotate, resumable ------------------------------------------------------
xqkit annotate --depth 1 -t ndjson --format ndjson -o one-annotated.ndjson games.pgn > one-summary.ndjson
mkdir out
# The first time, shard 3 fails (as if its machine went down).
seq 1 6 | parallel -j2 --joblog out/jobs.log --resume-failed \
	'echo {} >> ran; if [ {} = 3 ] && [ ! -e machine-back ]; then exit 1; fi;
	 xqkit annotate --depth 1 -t ndjson --format ndjson -o out/part-{}.ndjson \
	     --shard {}/6 games.pgn > out/summary-{}.ndjson' 2> /dev/null
[ $? -eq 1 ] || fail "annotate: the first run should report one failed job"
[ -e out/part-3.ndjson ] && fail "annotate: the failed shard left a part"
touch machine-back
seq 1 6 | parallel -j2 --joblog out/jobs.log --resume-failed \
	'echo {} >> ran; if [ {} = 3 ] && [ ! -e machine-back ]; then exit 1; fi;
	 xqkit annotate --depth 1 -t ndjson --format ndjson -o out/part-{}.ndjson \
	     --shard {}/6 games.pgn > out/summary-{}.ndjson' ||
	fail "annotate: the run after the restart failed"
LC_ALL=C sort ran | tr '\n' ' ' > a
printf '1 2 3 3 4 5 6 ' > b
same "annotate: --resume-failed runs only the failed shard again" a b
same_annotated "annotate, 6 shards" out

# ---- one big file by --shard ----------------------------------------------------
xqkit validate -q --format ndjson big.pgn > one.ndjson
seq 1 4 | parallel -j2 'xqkit validate -q --format ndjson --shard {}/4 big.pgn' > validate.ndjson
records one.ndjson > a
records validate.ndjson > b
same "big file by --shard: the lines of 4 shards are one run's" a b
summaries one.ndjson > a
xqkit merge-summaries validate.ndjson | summaries > b
same "big file by --shard: the merged summary is one run's" a b

# ---- one big file by --pipepart -----------------------------------------------------
# What is the blocks' own (file, places, game numbers, file count) left out.
unplaced() {
	sed -e 's/"file":"[^"]*",//' -e 's/"line":[0-9]*,//' -e 's/"col":[0-9]*,//' \
		-e 's/"offset":[0-9]*,//' -e 's/"game":[0-9]*,//' -e 's/ at offset [0-9]*//' "$@" |
		LC_ALL=C sort
}
parallel --pipepart -a big.pgn --recstart '[Event ' --block 20k -j2 \
	'xqkit validate -q --format ndjson -' > validate.ndjson
blocks=$(grep -c '"schema":"xqkit.summary/1"' validate.ndjson)
[ "$blocks" -gt 2 ] || fail "--pipepart: the file was cut in $blocks blocks, not more than 2"
records one.ndjson | unplaced > a
records validate.ndjson | unplaced > b
same "big file by --pipepart: the problems and checks of the blocks are one run's" a b
# (The blocks read standard input: their run, which names the command
# line, is not the one run's, which names the file.)
summaries one.ndjson | sed -e 's/"files":[0-9]*,//' -e 's/"run":"[0-9a-f]*",//' > a
xqkit merge-summaries --no-shard-check validate.ndjson | summaries |
	sed -e 's/"files":[0-9]*,//' -e 's/"run":"[0-9a-f]*",//' > b
same "big file by --pipepart: the merged summary is one run's but for the file count" a b
# Without --no-shard-check the blocks, each shard 1/1 of the same run, are
# refused: they are not the shards of one job.
xqkit merge-summaries validate.ndjson > c 2> err
[ $? -eq 1 ] && [ ! -s c ] && grep -q 'shard 1/1 again' err ||
	fail "--pipepart: blocks merged as if they were the shards of one job"

# ---- the Slurm array job, task by task ------------------------------------------------
cat > job.sh << 'EOF'
#!/bin/sh
xqkit annotate --depth 1 -t ndjson --format ndjson \
    --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
    -o "slurm/part-$SLURM_ARRAY_TASK_ID.ndjson" games.pgn \
    > "slurm/summary-$SLURM_ARRAY_TASK_ID.ndjson"
EOF
mkdir slurm
for id in 1 2 3; do
	SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_COUNT=3 sh job.sh || fail "slurm: task $id failed"
done
same_annotated "slurm, 3 tasks" slurm
SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=3 sh job.sh 2> /dev/null
[ $? -eq 2 ] || fail "slurm: a task numbered 0 should be a usage error"

cd / || exit 3
if [ "$fails" -ne 0 ]; then
	echo "parallel: $fails of $checks checks failed"
	exit 1
fi
echo "parallel: the GNU parallel and Slurm recipes of xqkit-scale(7) give one run's results ($checks checks)"
