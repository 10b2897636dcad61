#!/bin/sh
# No two files that call into each other: if a.c calls (or reads) what
# b.c defines, b.c reaches back to a.c by no path of such calls.
# Dependencies point one way, file by file as folder by folder
# (ARCHITECTURE.md), so that each file can be read, tested and replaced
# knowing only what it stands on.  Read from the objects as built (nm:
# what each defines, what each needs), not from the text, so a call
# through a macro or a table of function pointers counts too.
#
# Every circle is said as the files it passes, each with the first symbol
# (by name) it uses of the next.  A run first proves on a made-up circle
# that it finds one, and fails if the objects show no call between files
# at all (nm's output not understood), so it cannot pass by seeing nothing.
#
# Usage: tests/circles.sh BUILD-DIR   (run by `make check` after the build)
set -u
. tests/lib.sh
build=${1:-build}
command -v nm > /dev/null || skip circles "no nm here (binutils)"
tmp=$(test_tmpdir circles) || exit 3
trap 'rm -rf "$tmp"' EXIT

# "def FILE SYMBOL" and "use FILE SYMBOL" lines of one object, FILE the
# source it was built from.
symbols_of() { # OBJECT SOURCE
	nm "$1" > "$tmp/nm" || { echo "FAIL circles: nm cannot read $1"; return 1; }
	awk -v f="$2" '
		NF == 2 && ($1 == "U" || $1 == "w") { print "use", f, $2 }
		NF == 3 && $2 ~ /^[BCDGRSTVW]$/ { print "def", f, $3 }
	' "$tmp/nm"
}

# The circles among the files of a symbols list: none (status 0, one line
# that says how many files and calls it looked at) or each said (status 1).
circles() { # SYMBOLS
	awk '
	$1 == "def" { owner[$3] = $2; if (!($2 in seen)) { seen[$2] = 1; order[++nfiles] = $2 } }
	$1 == "use" { need[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(need[i], p, " ")
			o = owner[p[2]]
			if (o != "" && o != p[1] && !((p[1], o) in edge)) {
				edge[p[1], o] = p[2]
				out[p[1]] = out[p[1]] " " o
				nedges++
			}
		}
		for (i = 1; i <= nfiles; i++)
			if (!(order[i] in state))
				visit(order[i], 0)
		if (found) {
			print "FAIL circles: " found " circle(s) between files (each arrow: the first symbol the file uses of the next):"
			printf "%s", text
			print "Calls go one way: move what both sides need into a file below both, or hand it down (a reader is given its format entry when it is opened)."
			exit 1
		}
		if (!nedges) {
			print "FAIL circles: no call between files found among " nfiles " files (is nm output as expected?)"
			exit 1
		}
		printf "circles: none among %d files (%d calls between files)\n", nfiles, nedges
	}
	# Depth-first; a file met again while on the path closes a circle.
	function visit(f, depth,    k, m, w, i) {
		state[f] = 1
		path[depth] = f
		m = split(out[f], w, " ")
		for (k = 1; k <= m; k++) {
			if ((w[k] in state) && state[w[k]] == 1) {
				found++
				for (i = 0; i <= depth && path[i] != w[k]; i++) ;
				for (; i <= depth; i++)
					text = text "  " path[i] " -> (" edge[path[i], (i < depth ? path[i + 1] : w[k])] ")\n"
				text = text "  back to " w[k] "\n"
			} else if (!(w[k] in state))
				visit(w[k], depth + 1)
		}
		state[f] = 2
	}
	' "$1"
}

# The check itself, on a circle a.c -> b.c -> c.c -> a.c beside a file
# that only calls into it.
printf '%s\n' 'def a.c fa' 'def b.c fb' 'def c.c fc' 'def d.c fd' \
	'use a.c fb' 'use b.c fc' 'use c.c fa' 'use d.c fa' > "$tmp/made-up"
if circles "$tmp/made-up" > "$tmp/made-up.out"; then
	echo "FAIL circles: the check finds no circle in a.c -> b.c -> c.c -> a.c"
	exit 1
fi
for arrow in 'a.c -> (fb)' 'b.c -> (fc)' 'c.c -> (fa)'; do
	if ! grep -qF "  $arrow" "$tmp/made-up.out" || grep -qF 'd.c' "$tmp/made-up.out"; then
		echo "FAIL circles: the check says the circle a.c -> b.c -> c.c -> a.c wrongly:"
		cat "$tmp/made-up.out"
		exit 1
	fi
done

# The tree's files: each source's object (one missing is not built yet),
# and the generated sources' objects.
for src in lib/*.c formats/*.c batch/*.c api/*.c cmd/*.c; do
	o=$build/${src%.c}.o
	if [ ! -f "$o" ]; then
		echo "FAIL circles: $o is not built (run make first)"
		exit 1
	fi
	symbols_of "$o" "$src" || exit 1
done > "$tmp/symbols"
for o in "$build"/gen/*.o; do
	[ -f "$o" ] || continue
	symbols_of "$o" "gen/$(basename "$o" .o).c" || exit 1
done >> "$tmp/symbols"
circles "$tmp/symbols"
