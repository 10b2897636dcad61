#!/bin/sh
# tests/svg-render.sh XQKIT: an SVG board renders its pieces with no font at
# all.  rsvg-convert draws boards of a real game (the start, a middle game,
# the same flipped) to PNG in this test's own folder, with fontconfig
# pointed at an empty font folder, so no CJK font (no font at all) can be
# used; then, by pixels, each occupied point's centre must hold its piece's
# ink (red or black) and no other, and each empty point's centre neither.
# A board whose pieces were text would show empty discs or boxes here.
#
# Needs rsvg-convert (Debian: librsvg2-bin) and python3 (standard library
# only: tests/pixels.py decodes the PNG with zlib), found on $PATH; skips
# without them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
XQKIT=${1:-${XQKIT:-}}
name=svg_boards_render_their_pieces_with_no_font_installed

command -v rsvg-convert > /dev/null 2>&1 || skip "$name" "rsvg-convert not found"
command -v python3 > /dev/null 2>&1 || skip "$name" "python3 not found"

T=$(test_tmpdir svg-render)
trap 'rm -rf "$T"' EXIT
mkdir "$T/fonts" "$T/cache"
cat > "$T/fonts.conf" << EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>$T/fonts</dir>
  <cachedir>$T/cache</cachedir>
</fontconfig>
EOF
FONTCONFIG_FILE=$T/fonts.conf
export FONTCONFIG_FILE
unset FONTCONFIG_PATH || true
# The premise: this fontconfig knows no font at all.
if command -v fc-list > /dev/null 2>&1 && [ -n "$(fc-list)" ]; then
	echo "FAIL $name: fontconfig still lists fonts with $T/fonts.conf"
	exit 1
fi

game=$here/../samples/liu-dahua-1956.ndjson
status=0
for board in "0" "40" "40 --flip"; do
	set -- $board
	ply=$1
	shift
	png=$T/ply$ply$*.png
	fen=$("$XQKIT" replay --ply "$ply" --output-format ndjson "$game" |
		sed -n '$s/.*"fen":"\([^"]*\)".*/\1/p')
	"$XQKIT" replay --ply "$ply" "$@" --svg "$T/board.svg" --force "$game" > /dev/null
	rsvg-convert -f png -o "$png" "$T/board.svg"
	rm -f "$T/board.svg"
	python3 - "$here" "$png" "$fen" "${1:-}" << 'EOF' || status=1
import sys
sys.dont_write_bytecode = True  # nothing left in the source tree
sys.path.insert(0, sys.argv[1])
from pixels import board_failures

fails = board_failures(open(sys.argv[2], "rb").read(), sys.argv[3], sys.argv[4] == "--flip")
for f in fails:
    print("FAIL %s" % f)
sys.exit(1 if fails else 0)
EOF
	[ $status = 0 ] || {
		echo "FAIL $name: ply $ply $* (FEN $fen)"
		exit 1
	}
done
echo "svg-render: 3 boards rendered with no font, every piece inked"
