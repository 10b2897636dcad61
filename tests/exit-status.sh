#!/bin/sh
# Every exit status the man pages document, run: one status for each
# situation, in every command.
#
# Each man/xqkit-COMMAND.1 lists under EXIT STATUS its statuses (".TP",
# then ".B N" or ".BR 130 ...") and under each the situations that end with
# it, one sentence each, separated by ".br" lines.  tests/exit-status.tsv
# has a row per situation: the command, the status, the situation as the
# page says it (the roff taken away: macros, fonts, \- ...), and a shell
# line that meets it.  This script fails when
#   - a row's line ends with another status than the row's;
#   - a row's situation is not under that status in the command's page;
#   - a situation a page lists has no row (documented, never run), but
#     for "Internal error: a bug in xqkit." of the commands that have no
#     fault to inject (convert, find and dedupe have --verify's).
# A line runs with `sh -c` from the top of the repository, with $X the
# xqkit binary, $T a fresh empty folder of its own, $F the fixtures made
# below, and `stopped SIG CMD...` (CMD reads a FIFO nobody writes; SIG is
# sent once CMD catches it, or after a moment when it never does; the
# status is CMD's).
# Usage: exit-status.sh path/to/xqkit
set -u
xqkit=$1
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
. tests/lib.sh
tmp=$(test_tmpdir exit-status) || exit 3
trap 'chmod -R u+rwx "$tmp" 2> /dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
table=tests/exit-status.tsv

# ---- the situations of the pages ------------------------------------------------

# man/xqkit-CMD.1 -> lines "STATUS<TAB>situation", roff taken away.
situations() {
	awk '
	function unquote(s) { sub(/^"/, "", s); sub(/"$/, "", s); return s }
	# The words of a macro line, joined as alternating fonts join them.
	function args(s,    out, q, c, i) {
		out = ""; q = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\"") { q = !q; continue }
			if (c == " " && !q) continue
			out = out c
		}
		return out
	}
	function text(s) {
		if (s ~ /^\.(B|I) /) { sub(/^\.[BI] /, "", s); s = unquote(s) }
		else if (s ~ /^\.(BR|RB|IR|RI|BI|IB) /) { sub(/^\.[A-Z][A-Z] /, "", s); s = args(s) }
		else if (s ~ /^\./) return ""
		gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\e/, "\\", s)
		gsub(/\\\(em/, "-", s); gsub(/\\ /, " ", s)
		return s
	}
	function flush() {
		gsub(/  +/, " ", cur); sub(/^ /, "", cur); sub(/ $/, "", cur)
		if (cur != "" && status != "") print status "\t" cur
		cur = ""
	}
	/^\.SH EXIT STATUS/ { in_s = 1; next }
	/^\.SH / { if (in_s) flush(); in_s = 0 }
	!in_s { next }
	/^\.TP/ { flush(); want_status = 1; next }
	want_status { want_status = 0; s = text($0); gsub(/,/, "", s); gsub(/ /, ",", s); status = s; next }
	/^\.br/ { flush(); next }
	/^\.(PP|LP|P)$/ { flush(); status = ""; next }
	{ t = text($0); if (t != "") cur = cur (cur == "" || t ~ /^[,.;:)]/ ? "" : " ") t }
	END { if (in_s) flush() }' "$1"
}

# ---- fixtures ---------------------------------------------------------------------

F=$tmp/fixtures
mkdir -p "$F/dir" || exit 3
printf '[Event "one"]\n[Result "1-0"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 5. c3c4 g6g5 6. g3g4 c6c5 1-0\n' > "$F/game.pgn"
cat "$F/game.pgn" "$F/game.pgn" > "$F/copies.pgn"
printf '[Event "two"]\n\n1. b2e2 b9c7 2. b0c2 a9b9 3. a0b0 h9g7 4. h0g2 i9h9 5. i0h0 c6c5 6. c3c4 g6g5 *\n' > "$F/other.pgn"
printf '[Event "broken"]\n\n1. h2e2 h9g7 2. h2h9 *\n' > "$F/broken.pgn"
: > "$F/empty.pgn"
printf 'this is no record of any format\n\001\002\003\377\376\n' > "$F/junk.bin"
gzip -c "$F/copies.pgn" | head -c 40 > "$F/damaged.pgn.gz"
cp "$F/game.pgn" "$F/dir/a.pgn"
"$xqkit" validate -q --format ndjson "$F/game.pgn" > "$F/summary.ndjson"
"$xqkit" validate -q --format ndjson --shard 1/2 "$F/game.pgn" > "$F/shard1.ndjson"
"$xqkit" validate -q --format ndjson --shard 2/2 "$F/game.pgn" > "$F/shard2.ndjson"
"$xqkit" stats -q --format ndjson "$F/game.pgn" 2> /dev/null | tail -1 > "$F/other-job.ndjson"
tail -1 "$F/summary.ndjson" | head -c 100 > "$F/bad-summary.ndjson"
printf 'not a summary\n' > "$F/no-summary.ndjson"
start='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
printf 'id\tfen\tdepth\tnodes\tsource\nstart\t%s\t1\t44\tx\n' "$start" > "$F/suite-good.tsv"
printf 'id\tfen\tdepth\tnodes\tsource\nstart\t%s\t1\t45\tx\n' "$start" > "$F/suite-mismatch.tsv"
printf 'id\tfen\tdepth\tnodes\tsource\nstart\tnot a fen\t1\t44\tx\n' > "$F/suite-bad.tsv"
mkfifo "$F/silent" || exit 3
export F

# ---- the rows ----------------------------------------------------------------------

pass=0 fail=0
n=0
tab=$(printf '\t')
while IFS="$tab" read -r cmd status situation line; do
	case $cmd in '#'* | '') continue ;; esac
	n=$((n + 1))
	T=$tmp/row$n
	mkdir "$T" || exit 3
	got=$(X=$xqkit T=$T F=$F sh -c '
		stopped() {
			_sig=$1; shift
			env --default-signal=INT,TERM,HUP "$@" < "$F/silent" > /dev/null 2>&1 &
			_p=$!
			_i=0
			while [ $_i -lt 100 ]; do
				_c=$(sed -n "s/^SigCgt:[[:space:]]*[0-9a-f]\{8\}//p" /proc/$_p/status 2> /dev/null)
				[ -n "$_c" ] && [ $((0x$_c & 16386)) -ne 0 ] && break
				sleep 0.02
				_i=$((_i + 1))
			done
			sleep 0.2
			kill -$_sig $_p
			wait $_p
		}
		( '"$line"' ) > /dev/null 2> /dev/null
		echo $?' < /dev/null)
	want=$status
	case $status in *,*)
		# "130,143,129": the line sends SIGTERM
		want=143 ;;
	esac
	if [ "$got" != "$want" ]; then
		echo "FAIL exit-status: xqkit $cmd, exit $status ($situation): got $got from: $line"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	chmod -R u+rwx "$T" 2> /dev/null
	rm -rf "$T"
done < "$table"

# ---- the pages and the table agree ------------------------------------------------

for page in man/xqkit-*.1; do
	cmd=${page#man/xqkit-}
	cmd=${cmd%.1}
	situations "$page" | grep -vx "4${tab}Internal error: a bug in xqkit." | sort -u > "$tmp/doc"
	awk -F '\t' -v c="$cmd" '$1 == c { print $2 "\t" $3 }' "$table" | sort -u > "$tmp/rows"
	comm -23 "$tmp/doc" "$tmp/rows" | while IFS= read -r s; do
		echo "FAIL exit-status: $page documents a situation no row runs: $s"
	done > "$tmp/missing"
	comm -13 "$tmp/doc" "$tmp/rows" | while IFS= read -r s; do
		echo "FAIL exit-status: a row of $cmd is not in $page: $s"
	done >> "$tmp/missing"
	if [ -s "$tmp/missing" ]; then
		cat "$tmp/missing"
		fail=$((fail + $(wc -l < "$tmp/missing")))
	fi
done
echo "exit statuses: $pass rows passed, $fail failed"
[ $fail -eq 0 ]
