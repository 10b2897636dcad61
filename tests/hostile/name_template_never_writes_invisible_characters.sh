# Tags with bidi controls (U+202E right-to-left override), zero-width and
# other format characters, or C1 controls never reach --name file names:
# they become _, as control characters do.  "evil<RLO>gnp.exe" used to be
# written as is, shown by a terminal as "evilexe.png".
printf '[Event "e"]\n[Red "evil\342\200\256gnp.exe"]\n[Black "a\342\200\213b\302\205c\342\201\246d"]\n\n1. h2e2 h9g7 *\n' > "$T/bidi.pgn"
limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/games/" "$T/bidi.pgn"
expect_status 0
name=$(ls "$T/games")
[ "$name" = "0001-evil_gnp.exe-a_b_c_d.pgn" ] || fail "file name '$name'"
