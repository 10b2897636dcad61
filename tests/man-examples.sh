#!/bin/sh
# Run every example command in the man pages, so the documentation cannot
# drift from what xqkit does.  In the EXAMPLES section of man/*.1, each line
# of an .EX/.EE block that starts with "$ xqkit" is run from the top of the
# repository (after undoing the troff escape "\-"); it must exit 0 unless
# the line ends with "# exit N".  Usage: man-examples.sh path/to/xqkit
set -u
xqkit=$1
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
pass=0 fail=0
for page in man/*.1; do
	awk '/^\.SH EXAMPLES/{ex=1; next} /^\.SH/{ex=0} ex && /^\.EX/{blk=1; next} /^\.EE/{blk=0} ex && blk && /^\$ xqkit/{print}' "$page" |
	sed -e 's/\\-/-/g' -e 's/^\$ xqkit//' > /tmp/xqkit-man-$$.txt
	while IFS= read -r line; do
		want=0
		case $line in *"# exit "*) want=${line##*# exit }; line=${line%%# exit*} ;; esac
		sh -c "\"$xqkit\" $line" > /dev/null 2>/tmp/xqkit-man-err-$$.txt < /dev/null
		got=$?
		if [ "$got" = "$want" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL $page: xqkit$line: exit $got, expected $want"
			head -5 /tmp/xqkit-man-err-$$.txt
		fi
	done < /tmp/xqkit-man-$$.txt
done
rm -f /tmp/xqkit-man-$$.txt /tmp/xqkit-man-err-$$.txt
echo "man page examples: $pass passed, $fail failed"
[ $fail -eq 0 ]
