# A record file whose path is over 255 bytes keeps its extension: an
# empty .pgn and a .pgn of text no format claims by content, deep in a
# tree read with -r, are PGN files (one holding no game, one a bad move),
# not files of no format.  xqkit used to cut the name it asked the
# registry about at 255 bytes, so both were skipped and validate said
# "no problems found" with status 0.
d=$T/$(printf '%0120d' 1)/$(printf '%0120d' 2)/$(printf '%0120d' 3)
mkdir -p "$d" || fail "cannot make the tree"
: > "$d/empty.pgn"
printf 'x\n' > "$d/junk.pgn"
limited 30 400 "$XQKIT" validate -r "$T"
expect_status 1
expect_err "empty.pgn: error: the input holds no game [no-game]"
expect_err "junk.pgn:1:1: error: game 1, ply 1 (x): 'x' is not a move in any notation [bad-move-text]"
grep -q "^2 files, 1 game" "$T/err" || fail "the two files were not read as PGN"
