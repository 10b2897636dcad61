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
#   - a cmd/ file the list does not name that names what only a private
#     header declares (an xq_/XQ_ name no header of include/xq/ has),
#     reached through another cmd/ header, fails too: a file that needs
#     the private API includes it itself, and is listed, so the list is
#     the whole debt.
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

# Files not listed that name what only the private headers declare,
# reached through another cmd/ header: debt the list would not show.
cat lib/*.h formats/*.h | grep -oE '\b(xq|XQ)_[A-Za-z0-9_]+\b' | LC_ALL=C sort -u > "$tmp/names"
cat include/xq/*.h | grep -oE '\b(xq|XQ)_[A-Za-z0-9_]+\b' | LC_ALL=C sort -u > "$tmp/public"
LC_ALL=C comm -23 "$tmp/names" "$tmp/public" > "$tmp/private"
cut -d: -f1 "$tmp/found" | LC_ALL=C sort -u > "$tmp/listed"
for f in cmd/*.c cmd/*.h; do
	grep -qx "$f" "$tmp/listed" && continue
	n=$(grep -oE '\b(xq|XQ)_[A-Za-z0-9_]+\b' "$f" | LC_ALL=C sort -u | LC_ALL=C comm -12 - "$tmp/private" |
		tr '\n' ' ')
	[ -n "$n" ] && echo "$f: $n"
done > "$tmp/through"
if [ -s "$tmp/through" ]; then
	echo "FAIL cmd-headers: these files name private declarations that another cmd/ header" \
		"brings them (use the public API, or include the private header and list it):"
	sed 's/^/  /' "$tmp/through"
	fail=1
fi
[ $fail -eq 0 ] && echo "cmd-headers: $(LC_ALL=C sort -u "$tmp/listed" | wc -l) of" \
	"$(ls cmd/*.c cmd/*.h | wc -l) files of cmd/ include $(wc -l < "$tmp/found") private headers," \
	"as $allow allows; no other names a private declaration"
exit $fail
