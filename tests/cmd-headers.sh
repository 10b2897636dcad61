#!/bin/sh
# The xqkit command is to reach the library through its public API only
# (<xq/...>, include/xq/): cmd/ including the library's private headers
# (lib/, formats/) is the debt that tests/cmd-headers.allow records, one
# line "cmd/FILE: HEADER" for each private header a cmd/ file includes
# itself.  The list may only shrink, and stays true:
#   - a cmd/ file that includes a private header the list does not name
#     fails (use the public API, or add what it lacks to it);
#   - a line the sources no longer need fails too, until it is removed.
# A quoted include is public when it names a file of cmd/ (the command's
# own headers) or of include/ ("xq/position.h"); any other is private, and
# so is <board.h>, which the build's -I options find in lib/ too.
# It also says (without failing) which of the other files still name
# what only the private headers declare, reached through cmd/'s own
# plumbing headers: the part of the debt the list cannot see.
# Run by `make check` from the top of the tree.
set -u
. tests/lib.sh
allow=tests/cmd-headers.allow
tmp=$(test_tmpdir cmd-headers) || exit 3
trap 'rm -rf "$tmp"' EXIT

for f in cmd/*.c cmd/*.h; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r h; do
			[ -f "cmd/$h" ] || [ -f "include/$h" ] || echo "$f: $h"
		done
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f" |
		while read -r h; do
			[ -f "lib/$h" ] || [ -f "formats/$h" ] || [ -f "api/$h" ] && echo "$f: $h"
		done
done | LC_ALL=C sort -u > "$tmp/found"
grep -v '^#' "$allow" | grep -v '^$' | LC_ALL=C sort -u > "$tmp/allowed"

fail=0
LC_ALL=C comm -23 "$tmp/found" "$tmp/allowed" > "$tmp/new"
if [ -s "$tmp/new" ]; then
	echo "FAIL cmd-headers: cmd/ includes private headers that $allow does not allow" \
		"(use the public API of include/xq/, or add to it what is missing):"
	sed 's/^/  /' "$tmp/new"
	fail=1
fi
LC_ALL=C comm -13 "$tmp/found" "$tmp/allowed" > "$tmp/stale"
if [ -s "$tmp/stale" ]; then
	echo "FAIL cmd-headers: no longer included; remove these lines from $allow:"
	sed 's/^/  /' "$tmp/stale"
	fail=1
fi
[ $fail -eq 0 ] && echo "cmd-headers: $(cut -d: -f1 "$tmp/found" | sort -u | wc -l) of" \
	"$(ls cmd/*.c cmd/*.h | wc -l) files of cmd/ include $(wc -l < "$tmp/found") private headers, as $allow allows"

# What the list does not count, said (it does not fail): files that
# include no private header yet use names only the private headers
# declare, which cmd/'s own plumbing headers bring them.
cat lib/*.h formats/*.h | grep -oE '\b(xq|XQ)_[A-Za-z0-9_]+\b' | LC_ALL=C sort -u > "$tmp/names"
cat include/xq/*.h | grep -oE '\b(xq|XQ)_[A-Za-z0-9_]+\b' | LC_ALL=C sort -u > "$tmp/public"
LC_ALL=C comm -23 "$tmp/names" "$tmp/public" > "$tmp/private"
cut -d: -f1 "$tmp/found" | LC_ALL=C sort -u > "$tmp/listed"
for f in cmd/*.c cmd/*.h; do
	grep -qx "$f" "$tmp/listed" && continue
	n=$(grep -oE '\b(xq|XQ)_[A-Za-z0-9_]+\b' "$f" | LC_ALL=C sort -u | LC_ALL=C comm -12 - "$tmp/private" | wc -l)
	[ "$n" -gt 0 ] && echo "$f ($n)"
done > "$tmp/through"
[ -s "$tmp/through" ] && echo "cmd-headers: of the others, $(wc -l < "$tmp/through") use private names through" \
	"cmd/'s plumbing headers: $(tr '\n' ' ' < "$tmp/through")"
exit $fail
