# annotate -t ndjson --resume over an earlier output cut short inside its
# last game (a kill or a power loss): a game is copied only when its
# xqkit.annotated/1 line is there whole, ended by its newline; otherwise it
# is analysed again.  Whatever byte the file was cut at, going on with
# --resume gives the output an uncut run gives, byte for byte.  (Some 600
# runs: under sanitizers, on a loaded machine, every fifth byte and the
# bytes around each line end, so that the case ends within its time.)
printf '[Event "one"]\n\n1. h2e2 h9g7 *\n\n[Event "two"]\n\n1. c3c4 1-0\n' > "$T/in.pgn"
limited 30 512 "$XQKIT" annotate -q --depth 1 --hash 1 -t ndjson -o "$T/full.ndjson" "$T/in.pgn"
expect_status 0
size=$(wc -c < "$T/full.ndjson")
# The last game starts after the first game's xqkit.annotated/1 line.
last=$(grep -b '"schema":"xqkit.annotated/1"' "$T/full.ndjson" | head -n 1 | cut -d: -f1)
[ -n "$last" ] || fail "no annotated record in the output"
last=$((last + $(grep '"schema":"xqkit.annotated/1"' "$T/full.ndjson" | head -n 1 | wc -c)))
[ "$last" -lt "$size" ] || fail "no second game in the output"
k=$last
step=1
[ -n "${XQ_SANITIZE:-}" ] && step=5
ends=" $(LC_ALL=C awk -v from="$last" '{ n += length($0) + 1; if (n > from) print n - 1, n, n + 1 }' "$T/full.ndjson" | tr '\n' ' ') "
while [ "$k" -lt "$size" ]; do
	if [ $((k % step)) -ne 0 ] && [ "${ends#* $k }" = "$ends" ]; then
		k=$((k + 1))
		continue
	fi
	head -c "$k" "$T/full.ndjson" > "$T/cut.ndjson"
	timeout 30 "$XQKIT" annotate -q --depth 1 --hash 1 -t ndjson --resume -o "$T/cut.ndjson" "$T/in.pgn" 2> "$T/err" ||
		fail "cut at byte $k of $size: exit status $? ($(head -c 300 "$T/err"))"
	cmp -s "$T/cut.ndjson" "$T/full.ndjson" ||
		fail "cut at byte $k of $size: the resumed output is not the whole run's"
	k=$((k + 1))
done
no_temp_files "$T"
