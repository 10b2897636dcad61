"""pixels.py: is each piece drawn where a FEN says?  Read by pixels, with
the Python standard library only.

read_png(data) decodes a PNG (8-bit RGB or RGBA, not interlaced, as
rsvg-convert and Chromium write them) into rows of bytes; board_failures()
looks at the centre of each of the 90 points of a board drawn by
lib/diagram.c (pieces in #c0392b red and #1b1b1b black ink on a light
disc) and says what is wrong: an occupied point must hold its piece's ink
and not the other's, an empty one neither.  A piece drawn as text with no
font (an empty box) or not drawn at all fails.

Used by tests/svg-render.sh (rsvg-convert) and tests/browser/ (Chromium).
"""
import struct
import zlib


def read_png(data):
    """(width, height, bytes per pixel, rows of bytes)."""
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


def ink(rows, bpp, x, y):
    r, g, b = rows[y][x * bpp:x * bpp + 3]
    if r > 150 and g < 110 and b < 100:
        return "red"      # the red pieces' #c0392b
    if max(r, g, b) < 70 and abs(r - b) < 30:
        return "black"    # the black pieces' #1b1b1b; not the grid's brown
                          # #5a3a1a, nor where it blends with the last move's blue
    return None


def placement(fen):
    """{square: FEN letter} for the pieces of a FEN ("e0": "K")."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board["abcdefghi"[f] + str(9 - i)] = ch
                f += 1
    return board


def board_failures(png, fen, flip=False, x0=0, y0=0, cell=None):
    """What is wrong with the board drawn in `png` (bytes) for `fen`: a list
    of messages, empty when every point is right.  The board's top-left
    corner is at (x0, y0) and its points `cell` pixels apart (default: the
    image's width / 10, a cell of margin on each side)."""
    w, h, bpp, rows = read_png(png)
    if cell is None:
        cell = (w - x0) / 10
    board = {("abcdefghi".index(sq[0]), int(sq[1])): "red" if ch.isupper() else "black"
             for sq, ch in placement(fen).items()}
    fails, half = [], int(cell // 4)
    for rank in range(10):
        for f in range(9):
            cx = int(round(x0 + cell + (8 - f if flip else f) * cell))
            cy = int(round(y0 + cell + (rank if flip else 9 - rank) * cell))
            count = {"red": 0, "black": 0}
            for y in range(cy - half, cy + half + 1):
                for x in range(cx - half, cx + half + 1):
                    k = ink(rows, bpp, x, y)
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
    return fails
