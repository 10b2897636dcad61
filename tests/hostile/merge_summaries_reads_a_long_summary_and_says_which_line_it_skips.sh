# merge-summaries skipped a line of more than 1 MiB unread and without a
# word, a summary padded with white space included (issue 34, finding 6:
# exit 0 with 3 games instead of 6).  Now a line is read up to 16 MiB, and
# a longer one is a warning that names it, with exit status 1 and nothing
# written.
summary() {
	printf '{"schema":"xqkit.summary/1","command":"validate","shard":"%s","run":"0123456789abcdef",' "$1"
	printf '"files":1,"skipped_files":0,"failed_files":0,"games":3,"broken_games":0,"plies":9,'
	printf '"errors":0,"warnings":0,"notes":0,"codes":{},%s"seconds":0.5}\n' "$2"
}
pad() { awk -v n="$1" 'BEGIN { s = "        "; while (length(s) < n) s = s s; printf "%s", substr(s, 1, n) }'; }
summary 1/2 "" > "$T/s1.ndjson"
summary 2/2 "$(pad 1500000)" > "$T/s2.ndjson"
limited 10 256 "$XQKIT" merge-summaries "$T/s1.ndjson" "$T/s2.ndjson"
expect_status 0
grep -q '"games":6,' "$T/out" || fail "the long summary was not merged: $(cut -c 1-200 "$T/out")"
summary 2/2 "$(pad 17000000)" > "$T/s2.ndjson"
limited 10 256 "$XQKIT" merge-summaries "$T/s1.ndjson" "$T/s2.ndjson"
expect_status 1
expect_err "s2.ndjson:1: a line of more than 16 MiB: not read"
[ -s "$T/out" ] && fail "something was written although a line was skipped"
exit 0
