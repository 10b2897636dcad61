#!/bin/sh
# The Python binding against the cchess package, reading the same XQF
# files: each reads every file of the shared XQF corpus and takes, for
# every game, the players, the result and the main line's moves in ICCS
# (what a cchess user does).  Runs alternate (xq, cchess, xq, ...) RUNS
# times each; the table gives the median wall time of each process
# (interpreter start included) and the ratio; each run also prints the
# games, the moves and the seconds spent reading, measured inside it.
# Without cchess (pip install cchess), only the binding is timed and the
# comparison is said to be missing.
#
# Usage: bench/python.sh [RUNS]   (default 5; needs libxq installed, its
#        binding on PYTHONPATH or installed with `make install PREFIX=...`
#        and PREFIX given as $XQ_PREFIX, and the shared corpus in ../shared
#        or $XQ_SHARED)
set -eu
runs=${1:-5}
corpus=${XQ_SHARED:-../shared}/corpus/xqf
[ -d "$corpus" ] || { echo "no XQF corpus at $corpus (set XQ_SHARED)" >&2; exit 3; }
if [ -n "${XQ_PREFIX:-}" ]; then
	PYTHONPATH=$XQ_PREFIX/lib/xq/python${PYTHONPATH:+:$PYTHONPATH}
	export PYTHONPATH
fi
python3 -c 'import xq' 2> /dev/null || { echo "the xq binding is not importable (set XQ_PREFIX)" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$corpus" -type f \( -name '*.xqf' -o -name '*.XQF' \) | sort > "$tmp/all"

cat > "$tmp/xqi_read.py" << 'PY'
import sys, time, xq
t0 = time.perf_counter()
n = moves = 0
for path in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if not path:
        continue
    for game in xq.read(path):
        players = (game.red, game.black, game.result)
        moves += len(game.moves("iccs"))
        n += 1
print(n, moves, "%.3f" % (time.perf_counter() - t0))
PY
cat > "$tmp/cchess_read.py" << 'PY'
import sys, time, cchess
t0 = time.perf_counter()
read = getattr(getattr(cchess, "Game", None), "read_from", None) or cchess.read_from_xqf
n = moves = 0
for path in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if not path:
        continue
    try:
        game = read(path)
    except Exception:
        continue
    info = getattr(game, "info", {}) or {}
    players = (info.get("red"), info.get("black"), info.get("result"))
    dump = getattr(game, "dump_iccs_moves", None) or getattr(game, "dump_moves")
    line = dump()
    moves += len(line[0]) if line and isinstance(line[0], list) else len(line)
    n += 1
print(n, moves, "%.3f" % (time.perf_counter() - t0))
PY

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
have_cchess=0
python3 -c 'import cchess' 2> /dev/null && have_cchess=1

: > "$tmp/a"; : > "$tmp/b"
i=0
while [ $i -lt "$runs" ]; do
	t0=$(now); xqi_out=$(python3 "$tmp/xqi_read.py" "$tmp/all"); t1=$(now)
	awk "BEGIN{print $t1 - $t0}" >> "$tmp/a"
	if [ $have_cchess = 1 ]; then
		t0=$(now); cc_out=$(python3 "$tmp/cchess_read.py" "$tmp/all"); t1=$(now)
		awk "BEGIN{print $t1 - $t0}" >> "$tmp/b"
	fi
	i=$((i + 1))
done
a=$(median < "$tmp/a")
echo "files: $(wc -l < "$tmp/all") XQF files of $corpus, $runs runs each, medians of wall time"
echo "xq (libxq $(python3 -c 'import xq; print(xq.version())')): $a s; games, moves, seconds reading (last run): $xqi_out"
if [ $have_cchess = 1 ]; then
	b=$(median < "$tmp/b")
	echo "cchess $(python3 -c 'import cchess; print(getattr(cchess, "__version__", "?"))'): $b s; games, moves, seconds reading (last run): $cc_out"
	awk "BEGIN{printf \"cchess / xq: %.1f\n\", $b / $a}"
else
	echo "cchess: not installed (pip install cchess): no comparison measured"
fi
