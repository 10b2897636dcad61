#!/bin/sh
# What a change to the reader does to the shared corpus: two builds read
# every file of it (../shared/corpus, or $XQ_SHARED/corpus), and what they
# make of it is compared.
#
#   detection  each game's encoding as `validate --format ndjson` gives it
#              (the input's, or that of a line in another encoding): counted
#              by encoding for each build, and every game whose encoding
#              differs is listed (a false detection the change made or
#              mended), with the files whose input encoding differs;
#   games      `validate`: the games, plies and broken games of each file;
#   content    `convert -t ndjson` of every game (tags, moves, comments,
#              result, all decoded), game by game: the games whose record
#              differs are counted and the first ones shown.
#
# XQKIT (default ./xqkit) against BASE, a binary, or BASE_REV, a git
# revision built here in a temporary worktree (default HEAD~1).  Exit
# status 0 when nothing differs, 1 when something does (the lists say
# what), 3 when a build or the corpus is missing.
#
# Usage: [BASE=bin | BASE_REV=rev] bench/corpus-compare.sh
set -eu
. bench/lib.sh
bench_corpus compare

base=${BASE:-}
if [ -z "$base" ]; then
	rev=${BASE_REV:-HEAD~1}
	git worktree add -q --detach "$work/src" "$rev" > /dev/null
	trap 'git worktree remove --force "$work/src" 2> /dev/null || true; rm -rf "$work"' EXIT
	echo "building $rev ($(git rev-parse --short "$rev")) as the base..."
	make -C "$work/src" -j2 BUILD="$work/build" "$work/build/xqkit" > "$work/make.log" 2>&1 ||
		{ echo "could not build $rev (see $work/make.log)" >&2; exit 3; }
	base=$work/build/xqkit
fi
[ -x "$base" ] || { echo "no base binary at $base" >&2; exit 3; }

# run NAME BINARY: the validate report and the NDJSON records of the corpus.
run() {
	"$2" validate -r --format ndjson "$corpus" > "$work/$1.checks" 2> /dev/null || true
	"$2" convert -r -q -t ndjson --keep-broken -o "$work/$1.ndjson" "$corpus" 2> /dev/null || true
	# file TAB game TAB encoding, one line a game
	sed -n 's/^{"schema":"xqkit.check\/1","file":"\(.*\)","game":\([0-9]*\),.*"encoding":"\([^"]*\)".*/\1	\2	\3/p' \
		"$work/$1.checks" | sort > "$work/$1.enc"
	# file TAB games TAB plies TAB broken games, from each file's checks
	sed -n 's/^{"schema":"xqkit.check\/1","file":"\(.*\)","game":[0-9]*,.*"plies":\([0-9]*\),.*"broken":\([a-z]*\).*/\1	\2	\3/p' \
		"$work/$1.checks" |
		awk -F'\t' '{ g[$1]++; p[$1] += $2; b[$1] += $3 == "true" }
			END { for (f in g) print f "\t" g[f] " games\t" p[f] " plies\t" b[f] " broken" }' |
		sort > "$work/$1.games"
	# the records, each keyed by its source (file and game), the source left out
	sed 's/^{"schema":"xqkit.game\/1","source":{"file":"\([^"]*\)","game":\([0-9]*\),[^}]*},/\1	\2	{/' \
		"$work/$1.ndjson" | sort > "$work/$1.records"
}
run new "$xqkit"
run base "$base"

status=0
echo "corpus: $corpus ($(find "$corpus" -type f ! -name MANIFEST.tsv | wc -l | tr -d ' ') files)"
for b in base new; do
	printf '%-5s games by encoding:' "$b"
	cut -f3 "$work/$b.enc" | sort | uniq -c | awk '{ printf " %s %d,", $2, $1 }' | sed 's/,$//'
	printf '; files by the encoding of their first game:'
	awk -F'\t' '!seen[$1]++ { print $3 }' "$work/$b.enc" | sort | uniq -c |
		awk '{ printf " %s %d,", $2, $1 }' | sed 's/,$//'
	echo
	printf '%-5s encoding diagnostics:' "$b"
	grep '"code":"encoding"' "$work/$b.checks" |
		sed -n 's/.*"message":"\(this line is [a-z0-9-]*\|[^"]*\(replaced by U+FFFD\|marked broken\|reads as no text\)\).*/\1/p' |
		sed 's/.*replaced by U+FFFD.*/replaced by U+FFFD/; s/.*marked broken.*/marked broken/; s/.*reads as no text.*/valid utf-8 that reads as chinese/' |
		sort | uniq -c | awk '{ c = $1; $1 = ""; printf " %s%s %d,", sep, substr($0, 2), c }' | sed 's/,$//'
	echo
done

paste_key() { awk -F'\t' '{ print $1 "#" $2 "\t" $3 }' "$1" | sort; }
paste_key "$work/base.enc" > "$work/base.k"
paste_key "$work/new.enc" > "$work/new.k"
join -t '	' -a 1 -a 2 -e '-' -o 0,1.2,2.2 "$work/base.k" "$work/new.k" |
	awk -F'\t' '$2 != $3' > "$work/enc.diff"
n=$(wc -l < "$work/enc.diff" | tr -d ' ')
echo "games whose encoding differs: $n"
if [ "$n" -gt 0 ]; then
	status=1
	sed 's/^/  /; s/\t/: /; s/\t/ -> /' "$work/enc.diff" | head -40
fi

if cmp -s "$work/base.games" "$work/new.games"; then
	echo "games per file: the same in every file ($(wc -l < "$work/new.games" | tr -d ' ') files)"
else
	status=1
	echo "games per file differ:"
	diff "$work/base.games" "$work/new.games" | grep '^[<>]' | head -20 | sed 's/^/  /'
fi

awk -F'\t' '{ print $1 "#" $2 "\t" $3 }' "$work/base.records" | sort > "$work/base.r"
awk -F'\t' '{ print $1 "#" $2 "\t" $3 }' "$work/new.records" | sort > "$work/new.r"
total=$(wc -l < "$work/new.r" | tr -d ' ')
join -t '	' -a 1 -a 2 -e '-' -o 0,1.2,2.2 "$work/base.r" "$work/new.r" |
	awk -F'\t' '$2 != $3 { print $1 }' > "$work/rec.diff"
n=$(wc -l < "$work/rec.diff" | tr -d ' ')
echo "records (convert -t ndjson --keep-broken): $total; differing: $n"
if [ "$n" -gt 0 ]; then
	status=1
	head -20 "$work/rec.diff" | sed 's/^/  /'
fi
exit $status
