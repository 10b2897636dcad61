#!/usr/bin/env python3
"""bin_decode.py: an independent decoder of the one-game records xqkit
reads in formats/mxq.c, ccm.c, chn.c, che.c and xgf.c, written from the
byte layouts of doc/formats/{mxq,ccm,chn,che,xgf}.md (not from the C
readers), with the standard library alone.

    python3 bin_decode.py FILE...

prints, for each FILE, its name, a tab, and the moves of its main line in
ICCS ("h2e2 h9g7 ..."), every move the record holds, legal or not (the
decoder knows no rules).  tests/bin-formats.sh compares them with what
xqkit reads.
"""
import struct
import sys

FILES = "abcdefghi"


def sq(file, rank):
    if not (0 <= file <= 8 and 0 <= rank <= 9):
        raise ValueError("square off the board: file %d rank %d" % (file, rank))
    return FILES[file] + str(rank)


def mxq(d):
    """Length-prefixed fields; the 12th is "Moves"; moves like "7C-4C"
    (file digit from red's left, rank letter A = red's back rank) up to
    "Ends"."""
    pos, fields = 0, []
    while pos < len(d):
        n = d[pos]
        fields.append(d[pos + 1:pos + 1 + n])
        pos += 1 + n
    if fields[11] != b"Moves":
        raise ValueError("field 12 is not Moves")
    moves = []
    for f in fields[12:]:
        if f == b"Ends":
            return moves
        t = f.decode("ascii")
        moves.append(sq(int(t[0]), ord(t[1]) - 65) + sq(int(t[3]), ord(t[4]) - 65))
    raise ValueError("no Ends")


def ccm(d):
    """12-byte header (u32 move count at 8), then 9-byte records: piece,
    side, type, from column, from row, to column, to row, taken piece and
    its type; columns from red's left, rows from black's back rank."""
    (count,) = struct.unpack_from("<I", d, 8)
    moves = []
    for k in range(count):
        r = d[12 + 9 * k:12 + 9 * k + 9]
        moves.append(sq(r[3], 9 - r[4]) + sq(r[5], 9 - r[6]))
    return moves


def chn(d):
    """"GL"; 36-byte records from 0x1D8, the first the root; from and to at
    +14 and +15, each row (from black's back rank) << 4 | column (from
    red's left)."""
    if d[:2] != b"GL":
        raise ValueError("no GL")
    moves = []
    for off in range(0x1D8 + 36, len(d) - 35, 36):
        a, b = d[off + 14], d[off + 15]
        moves.append(sq(a & 15, 9 - (a >> 4)) + sq(b & 15, 9 - (b >> 4)))
    return moves


def che(d):
    """Decimal numbers: unknown, count, then ten a move: piece, 32, side,
    from row, from column, to row, to column, 0, number, 0; rows from red's
    back rank, columns from red's right (file i)."""
    n = [int(t) for t in d.split()]
    moves = []
    for k in range(n[1]):
        g = n[2 + 10 * k:12 + 10 * k]
        moves.append(sq(8 - g[4], g[3]) + sq(8 - g[6], g[5]))
    return moves


def xgf(d):
    """Fields (type, length, GBK text) from byte 2 up to type 9; 9 bytes;
    then B: u32 move count at B+344, 20-byte records from B+352 with from
    at +0 and to at +2, a square being (column+2) << 4 | (row+2), columns
    from red's right, rows from black's back rank."""
    pos = 2
    while True:
        t, n = d[pos], d[pos + 1]
        pos += 2 + n
        if t == 9:
            break
    base = pos + 9
    (count,) = struct.unpack_from("<I", d, base + 344)
    moves = []
    for k in range(count):
        r = base + 352 + 20 * k
        f, t = d[r], d[r + 2]
        moves.append(sq(8 - ((f >> 4) - 2), 9 - ((f & 15) - 2)) +
                     sq(8 - ((t >> 4) - 2), 9 - ((t & 15) - 2)))
    return moves


DECODERS = {".mxq": mxq, ".ccm": ccm, ".chn": chn, ".xqi": chn, ".che": che, ".xgf": xgf}


def main(paths):
    for p in paths:
        ext = p[p.rfind("."):].lower()
        with open(p, "rb") as f:
            moves = DECODERS[ext](f.read())
        print("%s\t%s" % (p, " ".join(moves)))


if __name__ == "__main__":
    main(sys.argv[1:])
