#!/bin/sh
# One vocabulary, and privacy that a name shows (ARCHITECTURE.md, Rules of the house):
#   - a name of the public API (include/xq/) is xq_/XQ_; a name private to
#     the library (lib/, formats/, batch/, api/) is xqi_/XQI_, so that no private
#     name can pass for a public one, nor clash with a program's names when
#     libxq.a is linked into it;
#   - the public headers name nothing private;
#   - the xqkit command (cmd/) uses the public API alone: it includes its
#     own headers and <xq/...>, and names nothing private.
# Run by `make check` from the top of the tree.
set -u
. tests/lib.sh
tmp=$(test_tmpdir names) || exit 3
trap 'rm -rf "$tmp"' EXIT
fail=0
words() { grep -ohE '\b(xq|XQ|xqi|XQI)_[A-Za-z0-9_]+' "$@" 2> /dev/null | LC_ALL=C sort -u; }

# The public names: those the installed headers declare.
words include/xq/*.h | grep -E '^(xq|XQ)_' > "$tmp/public"

# 1. The library's own names are public or marked private.  Build macros
#    (-D on the compiler's command line) are not names of the library.
#    A family named in a comment ("XQ_DIALECT_*") is the public names'.
words lib/* formats/* batch/* api/* | grep -E '^(xq|XQ)_' |
	grep -vxE 'XQ_(CHECKS|VERSION|GIT)' | LC_ALL=C comm -23 - "$tmp/public" |
	awk 'NR == FNR { pub[++n] = $0; next }
	     /_$|^XQ_E$/ { for (i = 1; i <= n; i++) if (index(pub[i], $0) == 1) next }
	     { print }' "$tmp/public" - > "$tmp/unmarked"
if [ -s "$tmp/unmarked" ]; then
	echo "FAIL names: private names without the xqi_/XQI_ mark (or public ones no header of include/xq/ declares):"
	for n in $(cat "$tmp/unmarked"); do
		echo "  $n: $(grep -lwE "$n" lib/* formats/* batch/* api/* | head -3 | tr '\n' ' ')"
	done
	fail=1
fi

# 2. The public headers and the command name nothing private.
for f in include/xq/*.h cmd/*.c cmd/*.h; do
	n=$(grep -ohE '\b(xqi|XQI)_[A-Za-z0-9_]+' "$f" | LC_ALL=C sort -u | tr '\n' ' ')
	[ -n "$n" ] && echo "  $f: $n"
done > "$tmp/leaks"
if [ -s "$tmp/leaks" ]; then
	echo "FAIL names: the public headers and cmd/ name private declarations:"
	cat "$tmp/leaks"
	fail=1
fi

# 3. The command includes its own headers and the public ones only (the
#    build's -I options would find the library's private headers too).
for f in cmd/*.c cmd/*.h; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r h; do
			[ -f "cmd/$h" ] || [ -f "include/$h" ] || echo "  $f: \"$h\""
		done
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f" |
		while read -r h; do
			for d in lib formats batch api; do
				[ -f "$d/$h" ] && echo "  $f: <$h> ($d/)"
			done
		done
done > "$tmp/includes"
if [ -s "$tmp/includes" ]; then
	echo "FAIL names: cmd/ includes the library's private headers (use the public API of include/xq/):"
	cat "$tmp/includes"
	fail=1
fi

[ $fail -eq 0 ] && echo "names: $(wc -l < "$tmp/public") public names; lib/, formats/, batch/ and api/ mark every" \
	"other private; include/xq/ and the $(ls cmd/*.c cmd/*.h | wc -l) files of cmd/ name none"
exit $fail
