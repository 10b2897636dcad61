# A CBF root holding 256 MiB of spaces gzips to 255 KB; reading one took
# 773 MB.  Each is refused at the CBF limit (8 MiB), on eight threads at once.
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<ChineseChessRecord Version="1.0">'
	head -c 268435456 /dev/zero | tr '\0' ' '
	printf '</ChineseChessRecord>\n'
} | gzip -9 > "$T/bomb.cbf.gz" || fail "cannot build the bomb"
for i in 1 2 3 4 5 6 7; do cp "$T/bomb.cbf.gz" "$T/bomb$i.cbf.gz"; done
limited 60 400 "$XQKIT" validate -j 8 "$T"/bomb*.cbf.gz samples/test.cbf
expect_status 1
expect_err "the input is larger than 8 MiB, the cbf format's limit for one record; not read [resource]"
[ "$(grep -c '\[resource\]' "$T/err")" = 8 ] || fail "not every bomb was refused"
grep -q "^9 files, 1 game" "$T/err" || fail "the valid input after the bombs was not read"
