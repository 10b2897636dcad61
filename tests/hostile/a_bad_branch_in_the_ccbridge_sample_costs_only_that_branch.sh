# The shared corpus's CCBridge record sample_23_ccbridge.cbr: a sound
# 45-move main line under 15,242 plies of analysis, with two illegal moves
# in side lines (plies 70 and 82).  convert used to skip the whole game
# ("0 written") for them.  Now each bad side line is cut from its illegal
# move on, reported as an error with its place and how many moves were
# cut, and the game is written with everything else; validate still
# counts the two errors (exit status 1); --strict refuses it as before.
corpus=${XQ_SHARED:-../shared}/corpus
f=$corpus/pgn/zfdang__chinese-chess-fish-android/棋谱/sample_23_ccbridge.cbr
[ -f "$f" ] || skip "$CASE" "no $f (set XQ_SHARED)"
limited 30 512 "$XQKIT" convert -t ndjson -o "$T/s.ndjson" "$f"
expect_status 1
expect_err "1 game from 1 file to ndjson: 1 written, 1 with a variation cut at an error"
expect_err "byte 44422: error: game 1, ply 70 (f9e8): illegal move f9e8"
expect_err "the variation is cut here: 3 moves not kept (this one and the 2 after it)"
expect_err "byte 46124: error: game 1, ply 82 (e9e8): illegal move e9e8"
expect_err "the variation is cut here: 107 moves not kept (this one and the 106 after it)"
# What was written is the game, whole but for the two cut lines.
limited 30 512 "$XQKIT" validate --format ndjson "$T/s.ndjson"
expect_status 0
grep -q '"plies":45,"nodes":15242,' "$T/out" || fail "the written game is not the 45-move line with 15,242 plies: $(grep -o '"plies":[0-9]*,"nodes":[0-9]*' "$T/out")"
limited 30 512 "$XQKIT" validate "$f"
expect_status 1
expect_err "2 errors: illegal-move 2"
limited 30 512 "$XQKIT" convert -t pgn --strict -o "$T/strict.pgn" "$f"
expect_status 1
expect_err "skipped: a variation of it was cut at an error (--strict writes whole games only)"
expect_err "0 written, 1 skipped"
