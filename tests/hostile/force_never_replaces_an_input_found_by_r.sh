# -r in/ -o in/games.pgn --force: games.pgn is an input (the directory read
# with -r holds it), so it is refused before anything is read or written,
# by convert and annotate alike.  It used to be skipped by the walk and
# replaced by the other file's game: 1 game of 6 left, exit 0.
mkdir -p "$T/in/sub"
cp samples/liu-dahua-iccs.pgn "$T/in/games.pgn"
cp samples/ccgc-2006-01-gbk.pgn "$T/in/sub/o.pgn"
chmod 640 "$T/in/games.pgn"
limited 30 512 "$XQKIT" convert -t pgn -r "$T/in/" -o "$T/in/games.pgn" --force
expect_status 2
expect_err "is an input"
expect_same "$T/in/games.pgn" samples/liu-dahua-iccs.pgn
limited 30 512 "$XQKIT" annotate --depth 1 -r "$T/in" -o "$T/in/games.pgn" --force
expect_status 2
expect_err "is an input"
expect_same "$T/in/games.pgn" samples/liu-dahua-iccs.pgn
[ "$(mode_of "$T/in/games.pgn")" = 640 ] || fail "the input's mode changed"
no_temp_files "$T"
