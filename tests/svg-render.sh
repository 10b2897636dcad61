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
# only: it decodes the PNG with zlib), found on $PATH; skips without them.
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
	fen=$("$XQKIT" replay --ply "$ply" --format ndjson "$game" |
		sed -n '$s/.*"fen":"\([^"]*\)".*/\1/p')
	"$XQKIT" replay --ply "$ply" "$@" --svg "$T/board.svg" --force "$game" > /dev/null
	rsvg-convert -f png -o "$png" "$T/board.svg"
	rm -f "$T/board.svg"
	python3 - "$png" "$fen" "${1:-}" << 'EOF' || status=1
import struct, sys, zlib

path, fen, flip = sys.argv[1], sys.argv[2], sys.argv[3] == "--flip"

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG layout"
    bpp = 4 if ctype == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = read_png(path)
cell = w // 10  # 8 cells between the edge files and a cell of margin each side

def ink(x, y):
    r, g, b = rows[y][x * bpp:x * bpp + 3]
    if r > 150 and g < 110 and b < 100:
        return "red"      # the red pieces' #c0392b
    if max(r, g, b) < 70 and abs(r - b) < 30:
        return "black"    # the black pieces' #1b1b1b; not the grid's brown
                          # #5a3a1a, nor where it blends with the last move's blue
    return None

board = {}
for i, row in enumerate(fen.split()[0].split("/")):
    f = 0
    for ch in row:
        if ch.isdigit():
            f += int(ch)
        else:
            board[(f, 9 - i)] = "red" if ch.isupper() else "black"
            f += 1

fails, half = [], cell // 4
for rank in range(10):
    for f in range(9):
        cx = cell + (8 - f if flip else f) * cell
        cy = cell + (rank if flip else 9 - rank) * cell
        count = {"red": 0, "black": 0}
        for y in range(cy - half, cy + half + 1):
            for x in range(cx - half, cx + half + 1):
                k = ink(x, y)
                if k:
                    count[k] += 1
        area = (2 * half + 1) ** 2
        want = board.get((f, rank))
        sq = "abcdefghi"[f] + str(rank)
        if want:
            other = "black" if want == "red" else "red"
            # A character's strokes cover a good part of the square (士,
            # the sparsest, 85 pixels of 625); an empty box for a missing
            # glyph (37) or nothing does not.
            if count[want] < area // 10 or count[other] > area // 50:
                fails.append("%s: a %s piece, but %d red and %d black ink pixels of %d"
                             % (sq, want, count["red"], count["black"], area))
        elif count["red"] or count["black"]:
            fails.append("%s: empty, but %d red and %d black ink pixels"
                         % (sq, count["red"], count["black"]))
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
