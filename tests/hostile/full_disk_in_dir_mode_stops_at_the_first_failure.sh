# -o DIR/ on a disk that fills up: convert stops at the first file that
# does not fit, says the disk is full and how many files were written, and
# exits 3.  It used to try every remaining game, one error each.  The disk
# is a 256 KiB tmpfs in a mount namespace of this case's own.
command -v unshare > /dev/null || skip "$CASE" "no unshare here"
mkdir "$T/disk"
awk 'BEGIN { for (i = 1; i <= 3000; i++) printf "[Event \"game %d\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n", i }' > "$T/many.pgn"
unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" 2> /dev/null || exit 77
	"$2" convert -t pgn -o "$1/games/" "$3" > "$4/out" 2> "$4/err"
	echo $? > "$4/status"
	ls "$1/games" | wc -l > "$4/count"
	find "$1" -name "*xqkit-*" > "$4/left"' sh "$T/disk" "$XQKIT" "$T/many.pgn" "$T"
[ $? -eq 77 ] && skip "$CASE" "cannot mount a tmpfs here (not root?)"
status=$(cat "$T/status")
expect_status 3
expect_err "the disk is full: stopped after"
errors=$(grep -c "not written" "$T/err")
[ "$errors" -eq 1 ] || fail "$errors games were tried after the disk was full"
count=$(cat "$T/count")
expect_err "stopped after $count files written"
[ -s "$T/left" ] && fail "temporary files left: $(cat "$T/left")"
[ "$count" -lt 3000 ] || fail "every game fitted: the disk was not filled"
