# An XQF header and 256 MiB of zeros gzip to 255 KB; reading one took
# 261 MB, and -j 8 multiplied it.  Each is refused at the XQF limit (4 MiB),
# with a resource error, and the run reads the next input.
{ printf 'XQ\n'; head -c 268435456 /dev/zero; } | gzip -9 > "$T/bomb.xqf.gz" || fail "cannot build the bomb"
for i in 1 2 3 4 5 6 7; do cp "$T/bomb.xqf.gz" "$T/bomb$i.xqf.gz"; done
limited 60 400 "$XQKIT" validate -j 8 "$T"/bomb*.xqf.gz samples/sample.xqf
expect_status 1
expect_err "the input is larger than 4 MiB, the xqf format's limit for one record; not read [resource]"
[ "$(grep -c '\[resource\]' "$T/err")" = 8 ] || fail "not every bomb was refused"
grep -q "^9 files, 1 game" "$T/err" || fail "the valid input after the bombs was not read"
