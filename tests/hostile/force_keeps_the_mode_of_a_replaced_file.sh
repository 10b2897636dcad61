# Outputs are created with 0666 less the umask, and a replaced file keeps
# its mode: --force over a 0600 file used to leave it 0644, readable by all,
# whatever the umask (convert, annotate and replay --svg alike).
printf 'secret\n' > "$T/c.pgn"
cp "$T/c.pgn" "$T/a.pgn"
cp "$T/c.pgn" "$T/r.svg"
chmod 600 "$T/c.pgn" "$T/a.pgn" "$T/r.svg"
limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/c.pgn" --force samples/sample.xqf
expect_status 0
[ "$(mode_of "$T/c.pgn")" = 600 ] || fail "convert: mode $(mode_of "$T/c.pgn"), expected 600"
limited 30 512 "$XQKIT" annotate -q --depth 1 -o "$T/a.pgn" --force samples/sample.xqf
expect_status 0
[ "$(mode_of "$T/a.pgn")" = 600 ] || fail "annotate: mode $(mode_of "$T/a.pgn"), expected 600"
limited 30 512 "$XQKIT" replay --svg "$T/r.svg" --force samples/sample.xqf
expect_status 0
[ "$(mode_of "$T/r.svg")" = 600 ] || fail "replay: mode $(mode_of "$T/r.svg"), expected 600"
grep -q secret "$T/c.pgn" && fail "the file was not replaced"
# A new file follows the umask.
(umask 077 && exec "$XQKIT" convert -q -t pgn -o "$T/new.pgn" samples/sample.xqf) ||
	fail "convert to a new file failed"
[ "$(mode_of "$T/new.pgn")" = 600 ] || fail "umask 077: mode $(mode_of "$T/new.pgn"), expected 600"
(umask 022 && exec "$XQKIT" convert -q -t pgn -o "$T/new2.pgn" samples/sample.xqf) ||
	fail "convert to a new file failed"
[ "$(mode_of "$T/new2.pgn")" = 644 ] || fail "umask 022: mode $(mode_of "$T/new2.pgn"), expected 644"
no_temp_files "$T"
