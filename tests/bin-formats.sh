#!/bin/sh
# tests/bin-formats.sh XQKIT: the one-game records of the shared corpus's
# sample folder (MXQ, CCM, CHN, XQI, CHE, XGF; copied in tests/data/bin/)
# as xqkit reads them against an independent decoding (tests/bin_decode.py,
# written from doc/formats/*.md), and each converted with --verify to every
# format that can be read back.
#
#   main_line_equals_an_independent_decoding: xqkit's main line is the
#     decoder's moves, all of them, or the ones before a move xqkit says is
#     illegal (an illegal-move error at the next ply);
#   every_sample_converts_with_verify_to_every_writable_format.
set -u
XQKIT=${1:?usage: bin-formats.sh XQKIT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$ROOT/tests/data/bin
command -v python3 >/dev/null 2>&1 || { echo "bin-formats: FAIL: python3 is needed"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/xq-bin-formats.XXXXXX") || exit 3
trap 'rm -rf "$T"' EXIT
failed=0
fail() {
	echo "FAIL bin-formats: $*"
	failed=1
}

for f in "$DIR"/movesky.mxq "$DIR"/17pk.ccm "$DIR"/ourgame.chn "$DIR"/ourgame.xqi \
	"$DIR"/qqchess.che "$DIR"/xiexie.xgf; do
	name=$(basename "$f")
	python3 "$ROOT/tests/bin_decode.py" "$f" | cut -f2 | tr ' ' '\n' | sed '/^$/d' > "$T/want" ||
		{ fail "$name: the independent decoder failed"; continue; }
	"$XQKIT" convert -q --keep-broken -t pgn --notation iccs -o - "$f" > "$T/pgn" 2> "$T/err"
	sed '/^\[/d' "$T/pgn" | tr ' ' '\n' |
		grep -E '^[a-i][0-9][a-i][0-9]$' > "$T/got"
	n=$(wc -l < "$T/got")
	m=$(wc -l < "$T/want")
	head -n "$n" "$T/want" > "$T/want.head"
	if ! cmp -s "$T/got" "$T/want.head"; then
		fail "$name: xqkit's main line differs from the independent decoding"
		diff "$T/got" "$T/want.head" | head -5
	elif [ "$n" -ne "$m" ]; then
		"$XQKIT" validate "$f" > /dev/null 2> "$T/verr"
		grep -q "ply $((n + 1)).*illegal-move" "$T/verr" ||
			fail "$name: xqkit reads $n of the $m moves without an illegal move at ply $((n + 1))"
	fi
	[ "$n" -gt 0 ] || fail "$name: no move read"
	for to in pgn xqf dhtmlxq cbf ndjson html; do
		v=--verify
		[ $to = html ] && v=
		# A record that holds an illegal move (the CHE sample) converts up
		# to it, with status 1 for the illegal move and no other error.
		"$XQKIT" convert -q $v --keep-broken -t $to -o "$T/out.$to" "$f" 2> "$T/cerr"
		st=$?
		if [ $st -ne 0 ] && { [ $st -ne 1 ] || [ ! -s "$T/out.$to" ] ||
			grep ': error: ' "$T/cerr" | grep -q -v 'illegal-move'; }; then
			fail "$name: convert $v -t $to failed ($st): $(head -3 "$T/cerr")"
		fi
		rm -f "$T/out.$to"
	done
done
[ $failed -eq 0 ] && echo "bin-formats: 6 samples equal their independent decoding and convert with --verify"
exit $failed
