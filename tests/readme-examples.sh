#!/bin/sh
# Run the README's examples as a reader would: every line of a ```sh block
# of README.md that starts with "./xqkit" runs, with ./xqkit standing for
# the xqkit under test, in a fresh, empty folder where the repository's
# samples/ and tests/ are reachable by the same names (symbolic links), so
# nothing is written into the source tree.  A line must exit 0, or N when
# its comment says "(exit N" ("(exit 1)", "(exit 1: why)"); a line whose comment names a
# file "of your own" is not run (the reader brings that file).  The lines
# run in order in one folder: an example may use what an earlier one wrote.
# Usage: readme-examples.sh path/to/xqkit
set -u
xqkit=$1
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
top=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-readme.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
awk '/^```sh/{blk=1; next} /^```/{blk=0} blk && /^\.\/xqkit /{print}' README.md > "$tmp/examples.txt"
mkdir "$tmp/work" || exit 3
ln -s "$top/samples" "$tmp/work/samples"
ln -s "$top/tests" "$tmp/work/tests"
state() { git status --porcelain --untracked-files=all 2> /dev/null; }
state > "$tmp/tree.before"
pass=0 fail=0 own=0
while IFS= read -r line; do
	comment=
	case $line in *"# "*) comment=${line#*# } ;; esac
	case $comment in *"of your own"*) own=$((own + 1)); continue ;; esac
	want=0
	case $comment in
	*"(exit "[0-9]*) want=${comment#*(exit }; want=${want%%[!0-9]*} ;;
	esac
	cmd=${line#./xqkit}
	(cd "$tmp/work" && sh -c "\"$xqkit\" $cmd") > /dev/null 2> "$tmp/err.txt" < /dev/null
	got=$?
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL README.md: $line: exit $got, expected $want"
		head -5 "$tmp/err.txt"
	fi
done < "$tmp/examples.txt"
state > "$tmp/tree.after"
if ! cmp -s "$tmp/tree.before" "$tmp/tree.after"; then
	echo "FAIL README.md: the examples changed the source tree:"
	diff "$tmp/tree.before" "$tmp/tree.after" | head -10
	fail=$((fail + 1))
fi
[ "$pass" -gt 0 ] || { echo "FAIL README.md: no example found"; fail=$((fail + 1)); }
echo "README examples: $pass passed, $fail failed, $own left to the reader's own files"
[ $fail -eq 0 ]
