#!/bin/sh
# Corpus-wide runs of the collection commands over the shared reference
# records (../shared/corpus, or $XQ_SHARED/corpus): validate on all of
# it, then convert round trips, each step with --verify:
#
#   every readable game  -> NDJSON (the baseline)
#   baseline -> PGN in each notation -> NDJSON      (chinese, iccs, wxf)
#   baseline -> PGN (chinese) -> XQF, one file per game -> PGN -> NDJSON
#   baseline -> XQF -> NDJSON
#
# and the move trees (moves, variations, result) at the end of each chain
# are compared game by game with the baseline (tags and comments may
# legitimately lose what a format cannot hold; every such loss is reported
# by convert itself).  Prints the counts; exit status 1 when a chain loses
# or changes a game or a step fails; skipped (tests/lib.sh) when the corpus
# or python3 is missing.
#
# Usage: tests/corpus.sh [path/to/xqkit]   (needs python3 for the comparison)
set -u
xqkit=${1:-./xqkit}
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
. tests/lib.sh
corpus=${XQ_SHARED:-../shared}/corpus
[ -d "$corpus" ] || skip corpus.sh "no corpus at $corpus (set XQ_SHARED)"
command -v python3 > /dev/null || skip corpus.sh "needs python3 to compare trees"
tmp=$(test_tmpdir corpus) || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
status=0

summary() { # FILE KEY...: print "key=value" for each key of the last summary line
	line=$(grep '"schema":"xqkit.summary/1"' "$1" | tail -1)
	shift
	for k in "$@"; do
		printf '%s=%s ' "$k" "$(echo "$line" | sed -n "s/.*\"$k\":\([0-9]*\).*/\1/p")"
	done
	echo
}

step() { # NAME ARGS...: run xqkit convert with --verify and an NDJSON report
	name=$1
	shift
	"$xqkit" convert --verify -q --format ndjson "$@" > "$tmp/$name.report" 2> "$tmp/$name.err"
	rc=$?
	printf '  %-28s exit %d: ' "$name" $rc
	summary "$tmp/$name.report" games written skipped with_losses verified verify_failed
	[ $rc -le 1 ] || status=1
	grep '"code":"loss"' "$tmp/$name.report" | grep '"severity":"error"' | head -3
}

compare() { # NAME FILE: compare the trees of FILE with the baseline
	python3 - "$tmp/base.ndjson" "$2" "$1" <<'EOF' || status=1
import json, sys
def tree(moves):
    out = []
    for m in moves:
        out.append([m["iccs"], [tree(v) for v in m.get("variations", [])]])
    return out
def key(line):
    g = json.loads(line)
    res = g.get("result") or "*"
    return (g["fen"].split(" ")[0:2], tree(g["moves"]), res)
a = [key(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
b = [key(l) for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
# Games a step skipped (reported by it) are missing from b: align by
# looking a little ahead in a for each game of b.
i = same = missing = 0
diff = []
for j, g in enumerate(b):
    if i < len(a) and a[i] != g:
        k = next((k for k in range(i + 1, min(len(a), i + 200)) if a[k] == g), None)
        if k is not None:
            missing += k - i
            i = k
    if i < len(a) and a[i] == g:
        same += 1
    else:
        diff.append(j + 1)
    i += 1
missing += max(0, len(a) - i)
print("  %-28s %d games, %d with the same tree and result, %d different%s, %d not written"
      % (sys.argv[3], len(a), same, len(diff), (" (output games %s)" % diff[:8]) if diff else "",
         missing))
sys.exit(1 if diff else 0)
EOF
}

echo "== validate -r $corpus"
"$xqkit" validate -r --format ndjson "$corpus" > "$tmp/validate.report" 2>/dev/null
rc=$?
[ $rc -le 1 ] || status=1
echo "  exit $rc: $(summary "$tmp/validate.report" files skipped_files failed_files games broken_games plies errors warnings notes)"
grep '"schema":"xqkit.summary/1"' "$tmp/validate.report" | sed 's/.*"codes":\({[^}]*}\).*/  by code: \1/'

echo "== convert round trips (each step with --verify)"
step base -r -t ndjson -o "$tmp/base.ndjson" "$corpus"
for n in chinese iccs wxf; do
	step "pgn-$n" -t pgn --notation $n -o "$tmp/pgn-$n.pgn" "$tmp/base.ndjson"
	step "pgn-$n-back" -t ndjson -o "$tmp/pgn-$n.ndjson" "$tmp/pgn-$n.pgn"
	compare "baseline = pgn $n" "$tmp/pgn-$n.ndjson"
done
step pgn-to-xqf -t xqf -o "$tmp/xqf/" --name '{n:6}' "$tmp/pgn-chinese.pgn"
step xqf-to-pgn -r -t pgn -o "$tmp/xqf-back.pgn" "$tmp/xqf"
step xqf-pgn-back -t ndjson -o "$tmp/xqf-back.ndjson" "$tmp/xqf-back.pgn"
compare "baseline = pgn>xqf>pgn" "$tmp/xqf-back.ndjson"
step ndjson-to-xqf -t xqf -o "$tmp/xqf2/" --name '{n:6}' "$tmp/base.ndjson"
step xqf-to-ndjson -r -t ndjson -o "$tmp/xqf2.ndjson" "$tmp/xqf2"
compare "baseline = xqf" "$tmp/xqf2.ndjson"
exit $status
