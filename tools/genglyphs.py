#!/usr/bin/python3
"""genglyphs.py: writes lib/glyphs.c, the outlines SVG boards draw their
pieces, river and labels with, so that a board needs no font installed.

Run at development time only; the build compiles the checked-in
lib/glyphs.c and needs neither this script nor the fonts.  To regenerate
(Debian 12: the fonts are fonts-noto-cjk 1:20220127, the library
python3-fonttools; the system python, which has fontTools):

    apt-get install python3-fonttools fonts-noto-cjk
    /usr/bin/python3 tools/genglyphs.py > lib/glyphs.c

Every outline is in a square of EM units centred on (0, 0), y down (SVG's
way), so that a <symbol viewBox="-EM/2 -EM/2 EM EM"> drawn at a point's
square centres it there:
  - ideographs: the centre of the ideographic em box (x: half the advance,
    y: half way between the box's top and bottom), where the type
    designer centred the character;
  - Latin letters and digits: half the advance across, half the cap height
    up from the baseline, so that labels line up on one baseline and
    digits sit in the middle of their square.
Coordinates are rounded to the EM grid (1/1000 of the glyph's size: below
a pixel for glyphs up to 1000 px), curves whose control points round onto
their chord become lines, and paths are written relative and compact.
"""

import sys

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTCollection

FONT_DIR = "/usr/share/fonts/opentype/noto/"
EM = 1000

# (font file, face in the collection, characters).  The traditional
# Chinese (TC) faces give the traditional characters their Taiwanese forms,
# the forms the piece names are usually printed in.
SOURCES = [
    # Pieces (as lib/diagram.c names them) and the river: bold serif, which
    # reads on a 30 px disc as printed pieces do.
    ("NotoSerifCJK-Bold.ttc", "Noto Serif CJK TC Bold",
     "帥仕相傌俥炮兵將士象馬車砲卒"),
    ("NotoSerifCJK-Regular.ttc", "Noto Serif CJK TC", "楚河漢界"),
    # Labels: red's file numbers, then ICCS letters and every digit.
    ("NotoSansCJK-Regular.ttc", "Noto Sans CJK TC", "一二三四五六七八九"),
    ("NotoSansCJK-Regular.ttc", "Noto Sans CJK TC", "abcdefghi0123456789"),
]


class Collect(BasePen):
    """The outline as contours of segments, in font units."""

    def __init__(self, glyphset):
        super().__init__(glyphset)
        self.contours = []

    def _moveTo(self, pt):
        self.contours.append([("M", [pt])])

    def _lineTo(self, pt):
        self.contours[-1].append(("L", [pt]))

    def _curveToOne(self, p1, p2, p3):
        self.contours[-1].append(("C", [p1, p2, p3]))

    def _closePath(self):
        pass

    def _endPath(self):
        pass


def face(path, name):
    for f in TTCollection(FONT_DIR + path).fonts:
        if f["name"].getDebugName(4) == name:
            return f
    sys.exit("genglyphs: no face %r in %s" % (name, path))


def near_chord(a, p, b):
    """Whether p lies within half a unit of the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n2 = dx * dx + dy * dy
    if n2 == 0:
        return (p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2 <= 0.25
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n2
    if t < 0 or t > 1:
        return False
    cross = (p[0] - a[0]) * dy - (p[1] - a[1]) * dx
    return cross * cross <= 0.25 * n2


def numbers(vals):
    """Numbers with the fewest separators: a minus sign separates too."""
    s = ""
    for v in vals:
        t = str(v)
        if s and t[0] != "-":
            s += " "
        s += t
    return s


def encode(contours, transform):
    out = []
    last_cmd = None
    cur = (0, 0)

    def emit(cmd, vals):
        nonlocal last_cmd
        if cmd == last_cmd and cmd != "m":
            text = numbers(vals)
            out.append(text if text[0] == "-" else " " + text)
        else:
            out.append(cmd + numbers(vals))
        last_cmd = cmd

    for contour in contours:
        segs = []
        for kind, pts in contour:
            segs.append((kind, [transform(p) for p in pts]))
        start = segs[0][1][0]
        pen = start
        body = []
        for kind, pts in segs[1:]:
            end = pts[-1]
            if kind == "C" and near_chord(pen, pts[0], end) and near_chord(pen, pts[1], end):
                kind, pts = "L", [end]
            if kind == "L" and end == pen:
                continue
            body.append((kind, pts, pen))
            pen = end
        # The closing line back to the start is what z draws anyway.
        while body and body[-1][0] == "L" and body[-1][1][0] == start:
            body.pop()
        if not body:
            continue
        emit("m", [start[0] - cur[0], start[1] - cur[1]])
        for kind, pts, frm in body:
            end = pts[-1]
            if kind == "L":
                dx, dy = end[0] - frm[0], end[1] - frm[1]
                if dx == 0:
                    emit("v", [dy])
                elif dy == 0:
                    emit("h", [dx])
                else:
                    emit("l", [dx, dy])
            else:
                vals = []
                for p in pts:
                    vals += [p[0] - frm[0], p[1] - frm[1]]
                emit("c", vals)
        out.append("z")
        last_cmd = "z"
        cur = start
    return "".join(out)


def glyph_path(font, ch):
    cmap = font.getBestCmap()
    gs = font.getGlyphSet()
    name = cmap.get(ord(ch))
    if name is None:
        sys.exit("genglyphs: %s has no %r" % (font["name"].getDebugName(4), ch))
    upm = font["head"].unitsPerEm
    scale = EM / upm
    cx = gs[name].width / 2
    if ord(ch) < 128:
        cy = font["OS/2"].sCapHeight / 2
    else:
        # Ideographic em box: OS/2 typographic ascender and descender.
        os2 = font["OS/2"]
        cy = (os2.sTypoAscender + os2.sTypoDescender) / 2
    pen = Collect(gs)
    gs[name].draw(pen)

    def transform(p):
        return (round((p[0] - cx) * scale), round((cy - p[1]) * scale))

    return encode(pen.contours, transform)


def c_string_lines(s, width=88):
    lines = []
    while s:
        lines.append(s[:width])
        s = s[width:]
    return lines


def main():
    glyphs = []
    notices = []
    for path, name, chars in SOURCES:
        font = face(path, name)
        n = font["name"]
        note = "%s, %s, %s" % (name, n.getDebugName(5).split(";")[0],
                                n.getDebugName(0).replace("\u00a9", "(c)"))
        if note not in notices:
            notices.append(note)
        for ch in chars:
            glyphs.append((ord(ch), ch, glyph_path(font, ch)))
    glyphs.sort()
    total = sum(len(g[2]) for g in glyphs)

    w = sys.stdout.write
    w("/*\n")
    w(" * glyphs.c: outlines of the characters SVG boards draw (pieces, river,\n")
    w(" * labels), so that a board renders the same with no font installed.\n")
    w(" *\n")
    w(" * GENERATED by tools/genglyphs.py from fonts-noto-cjk; do not edit.\n")
    w(" * Regenerate: /usr/bin/python3 tools/genglyphs.py > lib/glyphs.c\n")
    w(" *\n")
    w(" * The outlines are a modified version of these fonts (rounded, moved,\n")
    w(" * re-encoded as SVG path data):\n")
    for note in notices:
        w(" *   %s\n" % note)
    w(" * Both copyrights are Adobe's, with Reserved Font Name 'Source'; these\n")
    w(" * outlines are not a font, named neither 'Source' nor 'Noto'.\n")
    w(" * Noto is a trademark of Google Inc.  This file alone (not the rest of\n")
    w(" * xqkit, and not the drawings made with it) is licensed under the SIL\n")
    w(" * Open Font License, Version 1.1, whose full text is LICENSE.OFL at the\n")
    w(" * top of the repository.  THE FONT SOFTWARE IS PROVIDED \"AS IS\", WITHOUT\n")
    w(" * WARRANTY OF ANY KIND (see the licence).\n")
    w(" *\n")
    w(" * %d glyphs, %d bytes of path data.\n" % (len(glyphs), total))
    w(" */\n")
    w('#include "glyphs.h"\n\n')
    w("const struct xqi_glyph xqi_glyphs[] = {\n")
    for cp, ch, d in glyphs:
        w("\t/* %s */\n\t{0x%04X,\n" % (ch, cp))
        lines = c_string_lines(d)
        for i, line in enumerate(lines):
            w('\t "%s"%s\n' % (line, "}," if i == len(lines) - 1 else ""))
    w("};\n\n")
    w("const size_t xqi_glyph_count = sizeof(xqi_glyphs) / sizeof(xqi_glyphs[0]);\n")


if __name__ == "__main__":
    main()
