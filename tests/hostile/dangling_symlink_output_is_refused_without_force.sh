# An output name that is a symbolic link to a missing file is refused
# without --force (it used to be replaced silently), by every command that
# writes files; the link stays.  A link to a file is kept with --force, and
# the file it names replaced.
ln -s "$T/nowhere" "$T/link.pgn"
limited 30 512 "$XQKIT" convert -t pgn -o "$T/link.pgn" samples/sample.xqf
expect_status 2
expect_err "symbolic link to a missing file"
limited 30 512 "$XQKIT" annotate --depth 1 -o "$T/link.pgn" samples/sample.xqf
expect_status 2
expect_err "symbolic link to a missing file"
limited 30 512 "$XQKIT" replay --svg "$T/link.pgn" samples/sample.xqf
expect_status 2
expect_err "symbolic link to a missing file"
[ -L "$T/link.pgn" ] || fail "the link is gone"
[ -e "$T/nowhere" ] && fail "something was written through the link"
printf 'old\n' > "$T/real.pgn"
ln -s real.pgn "$T/alias.pgn"
limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/alias.pgn" --force samples/sample.xqf
expect_status 0
[ -L "$T/alias.pgn" ] || fail "--force replaced the link itself"
grep -q '^\[Event' "$T/real.pgn" || fail "the file the link names was not written"
no_temp_files "$T"
