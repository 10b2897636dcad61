# An output name as long as the file system allows (255 bytes) is written:
# the temporary file's name no longer grows with it (names of 242 to 255
# bytes used to fail with "cannot create a temporary file").
name=$(printf '%0251d' 0 | tr 0 n).pgn
limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/$name" samples/sample.xqf
expect_status 0
[ -s "$T/$name" ] || fail "the file was not written"
limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/$name" --force samples/liu-dahua-iccs.pgn
expect_status 0
limited 30 512 "$XQKIT" replay --svg "$T/$name.svg" samples/sample.xqf
expect_status 2 # 259 bytes: longer than a name can be
no_temp_files "$T"
