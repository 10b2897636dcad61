#!/bin/sh
# Run every example command in the man pages, so the documentation cannot
# drift from what xqkit does.  In the EXAMPLES section of man/*.1, each line
# of an .EX/.EE block that starts with "$ xqkit" is run (after undoing the
# troff escape "\-"); it must exit 0 unless the line ends with "# exit N".
#
# Each page's examples run in order in a fresh, empty folder of their own
# (under $TMPDIR, else /tmp), as a reader would in a folder of theirs: the
# repository's samples/ and tests/ are reachable there by the same names
# (symbolic links), and whatever an example writes stays in that folder,
# which is removed afterwards.  An example may use what an earlier one on the
# same page wrote (--resume does), never what another page or run left.
# Usage: man-examples.sh path/to/xqkit
set -u
xqkit=$1
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
top=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-man.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0 fail=0
for page in man/*.1; do
	awk '/^\.SH EXAMPLES/{ex=1; next} /^\.SH/{ex=0} ex && /^\.EX/{blk=1; next} /^\.EE/{blk=0} ex && blk && /^\$ xqkit/{print}' "$page" |
		sed -e 's/\\-/-/g' -e 's/^\$ xqkit//' > "$tmp/examples.txt"
	work=$tmp/work
	rm -rf "$work"
	mkdir "$work" || exit 3
	ln -s "$top/samples" "$work/samples"
	ln -s "$top/tests" "$work/tests"
	while IFS= read -r line; do
		want=0
		case $line in *"# exit "*) want=${line##*# exit }; line=${line%%# exit*} ;; esac
		(cd "$work" && sh -c "\"$xqkit\" $line") > /dev/null 2> "$tmp/err.txt" < /dev/null
		got=$?
		if [ "$got" = "$want" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL $page: xqkit$line: exit $got, expected $want"
			head -5 "$tmp/err.txt"
		fi
	done < "$tmp/examples.txt"
done
echo "man page examples: $pass passed, $fail failed"
[ $fail -eq 0 ]
