#!/bin/sh
# The bash completion (tools/completion.bash) completes what xqkit really
# takes: commands, each command's options (read from its --help), and file
# names where an option wants a file.  Usage: completion.sh path/to/xqkit
# (skipped with a message when bash is missing).
set -u
xqkit=$1
case $xqkit in /*) ;; *) xqkit=$(pwd)/$xqkit ;; esac
. tests/lib.sh
command -v bash > /dev/null || skip completion "no bash here"
exec bash -c '
xqkit=$1
source tools/completion.bash
fail=0
# expect "WORDS..." "the completions, sorted, space-separated"
expect() {
	COMP_WORDS=($1)
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	[ "${1: -1}" = " " ] && { COMP_WORDS+=(""); COMP_CWORD=$((COMP_CWORD + 1)); }
	COMP_WORDS[0]=$xqkit
	_xqkit
	got=$(printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " ")
	got=${got% }
	if [ "$got" != "$2" ]; then
		echo "FAIL completion of \"$1\": got \"$got\", expected \"$2\""
		fail=1
	fi
}
expect "xqkit va" "validate"
expect "xqkit help con" "convert"
expect "xqkit help fo" "formats"
expect "xqkit validate --files0" "--files0-from"
expect "xqkit replay --output-f" "--output-format"
expect "xqkit convert --ver" "--verbose --verify"
expect "xqkit annotate --engine-o" "--engine-option"
expect "xqkit replay --svg samples/sample.x" "samples/sample.xqf"
expect "xqkit validate --jobs " ""
expect "xqkit validate samples/endgame-b" "samples/endgame-big5.pgn"
expect "xqkit st" "stats"
expect "xqkit stats --tr" "--tree"
expect "xqkit stats --by p" "player"
expect "xqkit stats --book samples/sample.x" "samples/sample.xqf"
[ $fail -eq 0 ] && echo "bash completion: commands, options and file names complete"
exit $fail
' sh "$xqkit"
