#!/bin/sh
# libxq as its users get it: `make install` into a temporary prefix (and
# into a DESTDIR staging folder, then `make uninstall` there, which must
# leave nothing), then, through pkg-config only:
#   - the issue's 20-line program, built with exactly
#     `cc $(pkg-config --cflags --libs xq) prog.c`, reads an XQF and a
#     Big5 PGN;
#   - the examples in examples/ build (shared and static) and run;
#   - tests/api/test_api.c (cmocka) exercises the public API;
#   - the Python binding's tests run against the installed library;
# and the shared library exports only xq_ symbols, all of them public
# functions that are declared, documented in doc/api.md, used by a test
# or an example, and kept from one version to the next (api/abi-0.txt).
# Run by `make check` from the top of the tree, with the build's
# variables in MAKEFLAGS (so the install is of the same build).
set -u
. tests/lib.sh
MAKE=${MAKE:-make}
CC=${CC:-cc}
BUILD=${BUILD:-build}
command -v pkg-config > /dev/null || skip libxq-install "no pkg-config here"
tmp=$(test_tmpdir install) || exit 3
trap 'rm -rf "$tmp"' EXIT
fail=0
failed() {
	echo "FAIL libxq: $*"
	fail=1
}
prefix=$tmp/prefix
if ! $MAKE -s install PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL libxq: make install PREFIX=... failed"
	exit 1
fi
PKG_CONFIG_PATH=$prefix/lib/pkgconfig
LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_PATH LD_LIBRARY_PATH
san=
[ -n "${XQ_SANITIZE:-}" ] && san="-fsanitize=$XQ_SANITIZE -fno-sanitize-recover=all"

# Only the public headers are installed, and each compiles alone.
[ "$(ls "$prefix/include")" = xq ] || failed "include/ holds more than xq/"
for h in "$prefix"/include/xq/*.h; do
	printf '#include <xq/%s>\n' "${h##*/}" |
		$CC $(pkg-config --cflags xq) -std=c99 -pedantic -Wall -Wextra -Werror -x c -fsyntax-only - ||
		failed "<xq/${h##*/}> does not compile on its own"
done
if command -v c++ > /dev/null; then
	echo '#include <xq/xq.h>' | c++ $(pkg-config --cflags xq) -Wall -Wextra -Werror -x c++ -fsyntax-only - ||
		failed "<xq/xq.h> does not compile as C++"
fi

# The shared library: its SONAME, and only xq_ symbols exported.
so=$prefix/lib/libxq.so
major=$(sed -n 's/^#define XQ_VERSION_MAJOR //p' "$prefix/include/xq/version.h")
readelf -d "$so" | grep -q "SONAME.*\[libxq.so.$major\]" || failed "libxq.so has no SONAME libxq.so.$major"
nm -D --defined-only "$so" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort > "$tmp/exported"
grep -v '^xq_' "$tmp/exported" > "$tmp/foreign" && { failed "libxq.so exports symbols not named xq_:"; cat "$tmp/foreign"; }
sed -n 's/^XQ_API [^(]*[ *]\(xq_[a-z0-9_]*\)(.*/\1/p' "$prefix"/include/xq/*.h | sort > "$tmp/declared"
cmp -s "$tmp/exported" "$tmp/declared" || { failed "exported and declared functions differ:"; diff "$tmp/declared" "$tmp/exported"; }
# ABI: what an earlier version of the same major exported is still there.
grep -v '^#' api/abi-$major.txt | sort > "$tmp/abi"
comm -23 "$tmp/abi" "$tmp/exported" > "$tmp/removed"
[ -s "$tmp/removed" ] && { failed "functions of the $major.x ABI are gone:"; cat "$tmp/removed"; }
comm -13 "$tmp/abi" "$tmp/exported" > "$tmp/added"
[ -s "$tmp/added" ] && { failed "new functions are missing from api/abi-$major.txt:"; cat "$tmp/added"; }
# Every function documented, used by a test or an example, and with its
# NULL test: a row cmocka_unit_test(<function>_on_null_...) of a
# tests/api/test_null_*.c, or NO_POINTER(<function>) when it takes no
# pointer (the list of functions is the library's own, so a new one fails
# here until it has its test).
while read -r f; do
	grep -q "^### \`$f\`\|^### .*\b$f(" doc/api.md || failed "$f is not documented in doc/api.md"
	grep -q "\b$f\b" examples/*.c tests/api/*.c python/xq/*.py || failed "$f is used by no test or example"
	grep -q "cmocka_unit_test(${f}_on_null_\|NO_POINTER($f)" tests/api/test_null_*.c ||
		failed "$f has no NULL test in tests/api/test_null_*.c"
done < "$tmp/exported"

# The issue's test of done, the library named before the program (which
# a linker that drops unneeded libraries, --as-needed, must not drop).
if ! cc $(pkg-config --cflags --libs xq) $san tests/api/twenty.c -o "$tmp/twenty"; then
	failed "the 20-line program does not build with cc \$(pkg-config --cflags --libs xq) prog.c"
else
	"$tmp/twenty" tests/data/xqf/sample-v12.xqf tests/data/pgn/big5-black-first.pgn > "$tmp/twenty.out" ||
		failed "the 20-line program failed"
	cmp -s tests/api/expected/twenty.out "$tmp/twenty.out" ||
		{ failed "the 20-line program printed other moves"; diff tests/api/expected/twenty.out "$tmp/twenty.out"; }
fi

# The examples, built as a user would.
for e in moves validate convert perft; do
	$CC -std=c11 -Wall -Wextra -Werror $san $(pkg-config --cflags xq) -o "$tmp/$e" examples/$e.c \
		$(pkg-config --libs xq) || failed "examples/$e.c does not build"
done
"$tmp/moves" tests/data/xqf/variations-v0a.xqf samples/liu-dahua-1956.ndjson.gz samples/endgame-big5.pgn \
	samples/test.cbf samples/asian-2007.ubb tests/data/pgn/gb2312-crlf.pgn > "$tmp/moves.out" 2>&1 ||
	failed "examples/moves failed"
cmp -s tests/api/expected/moves.out "$tmp/moves.out" ||
	{ failed "examples/moves printed other moves"; diff tests/api/expected/moves.out "$tmp/moves.out"; }
"$tmp/moves" - < tests/data/xqf/sample-v12.xqf | sed 's/^-: //' > "$tmp/stdin.out"
"$tmp/moves" tests/data/xqf/sample-v12.xqf | sed 's/^[^:]*: //' | cmp -s - "$tmp/stdin.out" ||
	failed "examples/moves read standard input otherwise than the file"
"$tmp/validate" tests/data/xqf tests/data/ndjson/repetition.ndjson > "$tmp/validate.out"
[ $? -eq 1 ] || failed "examples/validate on damaged records did not exit 1"
cmp -s tests/api/expected/validate.out "$tmp/validate.out" ||
	{ failed "examples/validate reported otherwise"; diff tests/api/expected/validate.out "$tmp/validate.out"; }
# A Result tag naming another result than the game's is an error there,
# as xqkit validate counts it (xq_record_result_tag_stands()).
printf '[Event "w"]\n[Result "1-0"]\n\n1. h2e2 0-1\n' > "$tmp/bad-result.pgn"
"$tmp/validate" "$tmp/bad-result.pgn" > "$tmp/bad-result.out"
[ $? -eq 1 ] && grep -q 'error: game 1: .*\[bad-result\]' "$tmp/bad-result.out" ||
	{ failed "examples/validate does not count a Result tag against the game as an error"; cat "$tmp/bad-result.out"; }
# The library validates as xqkit does (xq_record_validate()): the same
# problems, in the same words and order (the counts at the end aside).
"$XQKIT" validate -r tests/data/xqf tests/data/ndjson/repetition.ndjson 2>&1 | grep -v '^[0-9]' > "$tmp/xqkit-validate.out"
grep -v '^[0-9]' "$tmp/validate.out" | cmp -s - "$tmp/xqkit-validate.out" ||
	{ failed "examples/validate and xqkit validate report otherwise"; grep -v '^[0-9]' "$tmp/validate.out" | diff - "$tmp/xqkit-validate.out"; }
"$tmp/convert" "$tmp/both.pgn" tests/data/xqf/sample-v12.xqf tests/data/pgn/big5-black-first.pgn 2> "$tmp/convert.err" ||
	{ failed "examples/convert failed"; cat "$tmp/convert.err"; }
"$tmp/moves" tests/data/xqf/sample-v12.xqf tests/data/pgn/big5-black-first.pgn | sed 's/^[^:]*: game [0-9]*//' > "$tmp/before"
"$tmp/moves" "$tmp/both.pgn" | sed 's/^[^:]*: game [0-9]*//' > "$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || failed "examples/convert did not keep the moves"
[ "$("$tmp/perft" 3 | tail -n 1)" = "total 79666 (perft 79666)" ] || failed "examples/perft counted otherwise"
# ABI in practice: the examples as the first libxq 0 shipped them
# (commit 3658e5e), built against that version's headers, run against
# this library and read, count and convert as they did.  Needs the
# history (a git clone); a tree without it says so by name.
abi_base=3658e5e
if git cat-file -e "$abi_base^{commit}" 2> /dev/null; then
	mkdir -p "$tmp/old/xq"
	for h in $(git ls-tree --name-only "$abi_base" include/xq/); do
		git show "$abi_base:$h" > "$tmp/old/xq/${h##*/}"
	done
	for e in moves perft convert validate; do
		git show "$abi_base:examples/$e.c" > "$tmp/old/$e.c"
		$CC -std=c11 $san -I"$tmp/old" -o "$tmp/old/$e" "$tmp/old/$e.c" -L"$prefix/lib" -lxq ||
			failed "examples/$e.c of $abi_base does not build against its own headers"
	done
	"$tmp/old/moves" tests/data/xqf/sample-v12.xqf tests/data/pgn/big5-black-first.pgn > "$tmp/old/moves.out" &&
		"$tmp/moves" tests/data/xqf/sample-v12.xqf tests/data/pgn/big5-black-first.pgn |
		cmp -s - "$tmp/old/moves.out" ||
		failed "examples/moves built against libxq 0 of $abi_base reads otherwise with this library"
	[ "$("$tmp/old/perft" 3 | tail -n 1)" = "total 79666 (perft 79666)" ] ||
		failed "examples/perft built against libxq 0 of $abi_base counts otherwise with this library"
	"$tmp/old/convert" "$tmp/old/both.pgn" tests/data/xqf/sample-v12.xqf tests/data/pgn/big5-black-first.pgn \
		2> /dev/null && "$tmp/moves" "$tmp/old/both.pgn" | sed 's/^[^:]*: game [0-9]*//' | cmp -s - "$tmp/before" ||
		failed "examples/convert built against libxq 0 of $abi_base converts otherwise with this library"
	"$tmp/old/validate" tests/data/xqf > /dev/null
	[ $? -eq 1 ] || failed "examples/validate built against libxq 0 of $abi_base does not find the damage"
else
	echo "SKIP libxq-abi-examples: no git history here (commit $abi_base), so the examples of the first libxq 0 cannot be built"
fi
# Static linking through pkg-config --static.
if $CC $san $(pkg-config --cflags xq) -o "$tmp/moves-static" examples/moves.c -L"$prefix/lib" \
	-Wl,-Bstatic -lxq -Wl,-Bdynamic $(pkg-config --static --libs-only-l xq | sed 's/-lxq//'); then
	readelf -d "$tmp/moves-static" | grep -q 'NEEDED.*libxq' && failed "the static build needs libxq.so"
	"$tmp/moves-static" tests/data/xqf/sample-v12.xqf > /dev/null || failed "the statically linked example failed"
else
	failed "examples/moves.c does not link statically with pkg-config --static"
fi

# The public API's own tests: each tests/api/test_*.c a program of its own.
api_tests=0
if pkg-config --exists cmocka; then
	for t in tests/api/test_*.c; do
		b=$(basename "$t" .c)
		if $CC -std=c11 -Wall -Wextra -Werror $san -pthread -Itests/unit $(pkg-config --cflags xq cmocka) \
			-o "$tmp/$b" "$t" $(pkg-config --libs xq cmocka); then
			"$tmp/$b" > "$tmp/$b.log" 2>&1 || { cat "$tmp/$b.log"; failed "$t"; }
			api_tests=$((api_tests + $(grep -c '^\[       OK \]' "$tmp/$b.log")))
		else
			failed "$t does not build"
		fi
	done
else
	failed "no cmocka.pc: the API tests cannot build"
fi

# The Python binding against the installed library.
py=skipped
py_skip() {
	if [ -n "${XQ_TEST_NO_SKIP:-}" ] && [ "$XQ_TEST_NO_SKIP" != 0 ]; then
		failed "python binding skipped ($*), but XQ_TEST_NO_SKIP says everything must run"
	else
		echo "skipped: python binding: $*"
	fi
}
# python3 is not built with the sanitizers: their runtimes are loaded
# first, and leaks are not looked for (the interpreter's own are many).
preload=
for rt in ${XQ_SANITIZE:+$(echo "$XQ_SANITIZE" | tr , ' ')}; do
	case $rt in
	address) lib=libasan.so ;;
	undefined) lib=libubsan.so ;;
	*) lib= ;;
	esac
	found=${lib:+$($CC -print-file-name=$lib)}
	case $found in
	/*) preload="$preload $found" ;;
	*) preload=none ;;
	esac
done
if ! command -v python3 > /dev/null; then
	py_skip "no python3 here"
elif [ "$preload" != "${preload#*none}" ]; then
	py_skip "no runtime of -fsanitize=$XQ_SANITIZE that python3 can preload"
elif LD_PRELOAD=${preload# } ASAN_OPTIONS=detect_leaks=0 PYTHONPATH=$prefix/lib/xq/python PYTHONDONTWRITEBYTECODE=1 \
	python3 -m unittest discover -s python/tests > "$tmp/python.log" 2>&1; then
	py=$(tail -n 3 "$tmp/python.log" | grep -o 'Ran [0-9]* tests')
else
	cat "$tmp/python.log"
	failed "python/tests"
fi

# DESTDIR staging, and uninstall removes exactly what install put.
stage=$tmp/stage
if $MAKE -s install DESTDIR="$stage" PREFIX=/opt/xq > "$tmp/stage.log" 2>&1; then
	grep -q '^prefix=/opt/xq$' "$stage/opt/xq/lib/pkgconfig/xq.pc" || failed "xq.pc does not name the real prefix"
	[ -e "$stage/opt/xq/lib/libxq.so.$major" ] || failed "DESTDIR install has no libxq.so.$major"
	$MAKE -s uninstall DESTDIR="$stage" PREFIX=/opt/xq > "$tmp/stage.log" 2>&1 || failed "make uninstall failed"
	left=$(find "$stage" ! -type d)
	[ -z "$left" ] || failed "make uninstall left: $left"
else
	cat "$tmp/stage.log"
	failed "make install DESTDIR=... failed"
fi

[ $fail -eq 0 ] && echo "libxq: installed and used through pkg-config: $(wc -l < "$tmp/exported") functions," \
	"4 examples, ${api_tests:-0} API tests, python: $py"
exit $fail
