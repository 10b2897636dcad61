# convert -o DIR/ names its files from the games' tags, so whoever wrote
# the records chooses the names.  A FIFO planted in DIR under such a name
# blocked the run for ever (opened for writing, no reader); a symbolic
# link planted there was followed with --force and the file it named,
# outside DIR, replaced.  Under DIR/ a name is only ever a new file or a
# regular file replaced (--force): a link, a FIFO, a socket or a
# directory there is refused, reported with the game, and the run goes on
# (exit status 2: the name is taken).  One-file -o keeps its rules
# (output_fifo_is_written_not_replaced, force_keeps_the_mode_of_a_replaced_file).
printf '[Red "fifo"]\n\n1. h2e2 h9g7 *\n\n[Red "link"]\n\n1. h2e2 h9g7 *\n\n[Red "dir"]\n\n1. h2e2 h9g7 *\n\n[Red "fine"]\n\n1. h2e2 h9g7 *\n' > "$T/games.pgn"
mkdir "$T/games" && mkfifo "$T/games/fifo.pgn" && mkdir "$T/games/dir.pgn" || fail "setup"
printf 'theirs\n' > "$T/victim"
ln -s "$T/victim" "$T/games/link.pgn" || fail "ln"
for force in "" --force; do
	rm -f "$T/games/fine.pgn"
	limited 10 512 "$XQKIT" convert -q -t pgn $force --name '{Red}' -o "$T/games/" "$T/games.pgn"
	expect_status 2
	expect_err "game 1: not written: '$T/games/fifo.pgn' is a FIFO"
	expect_err "game 2: not written: '$T/games/link.pgn' is a symbolic link"
	expect_err "game 3: not written: '$T/games/dir.pgn' is a directory"
	[ "$(cat "$T/victim")" = theirs ] || fail "${force:-without --force}: the file the link names was replaced"
	[ -L "$T/games/link.pgn" ] && [ -p "$T/games/fifo.pgn" ] || fail "a planted entry was removed"
	grep -q fine "$T/games/fine.pgn" || fail "the game after them was not written"
	no_temp_files "$T"
done
