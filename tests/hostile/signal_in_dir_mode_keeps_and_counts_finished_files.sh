# SIGINT while convert writes one file per game (-o DIR/): the files
# finished are kept, the message says how many (it used to say "no output
# is left behind" over thousands of files), and no temporary file is left.
mkfifo "$T/feed" || fail "mkfifo"
{
	while :; do printf '[Event "e"]\n\n1. h2e2 h9g7 *\n\n'; done
} > "$T/feed" 2> /dev/null &
interrupt INT 0.3 "$XQKIT" convert -t pgn -o "$T/games/" - < "$T/feed"
expect_status 130
expect_within 2000
kept=$(ls "$T/games" | wc -l)
[ "$kept" -gt 0 ] || fail "no file was written in 0.3 s"
expect_err "interrupted: the $kept files written under '$T/games/' are kept"
expect_no_err "no output is left behind"
no_temp_files "$T"
