#!/usr/bin/env python3
"""ccbridge.py: an independent decoder of CBR records and plain CBL
libraries, written from doc/formats/cbr.md and cbl.md alone (not from
xqkit's reader), to read what xqkit writes.

Usage: ccbridge.py FILE...  Prints one JSON object per record:
{"title", "red", "black", "event", "result" (the code), "fen" (board and
side), "main" (the main line in ICCS, space-separated), "nodes" (every
node of the tree), "comments" (nodes with a comment)}.  Exit status 1 when
a file is not what the pages describe.
"""
import json
import struct
import sys

PIECES = {1: "r", 2: "n", 3: "b", 4: "a", 5: "k", 6: "c", 7: "p"}


def text(buf, off, size):
    """A UTF-16LE field: up to its first NUL unit."""
    raw = buf[off:off + size]
    end = 0
    while end + 1 < len(raw) and (raw[end] or raw[end + 1]):
        end += 2
    return raw[:end].decode("utf-16-le")


def square(b):
    """A square byte (row from the top * 9 + column) as ICCS."""
    if b >= 90:
        raise ValueError("square byte %d" % b)
    row, col = divmod(b, 9)
    return "abcdefghi"[col] + str(9 - row)


def fen_of(board, side):
    rows = []
    for row in range(10):
        out, empty = "", 0
        for col in range(9):
            c = board[row * 9 + col]
            if not c:
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            letter = PIECES[c & 15]
            out += letter.upper() if c >> 4 == 1 else letter
        rows.append(out + (str(empty) if empty else ""))
    return "/".join(rows) + (" b" if side == 2 else " w")


def record(buf):
    """One version 2 record: a dict, and the offset after its tree."""
    if buf[:16] != b"CCBridge Record\0" or buf[19] != 2:
        raise ValueError("not a version 2 CBR record")
    out = {
        "title": text(buf, 180, 128),
        "event": text(buf, 692, 64),
        "red": text(buf, 1076, 64),
        "black": text(buf, 1300, 64),
        "result": struct.unpack_from("<I", buf, 2076)[0],
        "fen": fen_of(buf[2120:2210], struct.unpack_from("<I", buf, 2112)[0]),
    }
    pos, first_line, nodes, comments = 2214, [], 0, 0
    open_alts, in_first, root = 0, True, True
    while True:
        flags, _, frm, to = buf[pos:pos + 4]
        pos += 4
        if flags & 4:
            n = struct.unpack_from("<I", buf, pos)[0]
            pos += 4
            buf[pos:pos + n].decode("utf-16-le")
            pos += n
            comments += 1
        if root:
            root = False
            if flags & 1:
                break
            continue
        nodes += 1
        if in_first:
            first_line.append(square(frm) + square(to))
        if flags & 2:
            open_alts += 1
        if flags & 1:
            in_first = False
            if open_alts == 0:
                break
            open_alts -= 1
    out["main"] = " ".join(first_line)
    out["nodes"] = nodes
    out["comments"] = comments
    return out, pos


def library(buf):
    if buf[:16] != b"CCBridgeLibrary\0":
        raise ValueError("not a CCBridgeLibrary")
    slots = struct.unpack_from("<I", buf, 60)[0]
    name = text(buf, 64, 512)
    at = 66624 + 276 * slots
    out = []
    for k in range(slots):
        s = 66624 + 276 * k
        flags, number, _, size, _ = struct.unpack_from("<5I", buf, s)
        if flags == 0:
            continue
        rec, end = record(buf[at:at + size])
        if end != size:
            raise ValueError("slot %d: size %d, tree ends at %d" % (k, size, end))
        guid = buf[at + 20:at + 36]
        d1, d2, d3 = struct.unpack_from("<IHH", guid)
        want = "{%08X-%04X-%04X-%s-%s}" % (d1, d2, d3, guid[8:10].hex().upper(),
                                           guid[10:16].hex().upper())
        if text(buf, s + 20, 80) != want:
            raise ValueError("slot %d: GUID text is not the record's" % k)
        if text(buf, s + 100, 176) != rec["title"]:
            raise ValueError("slot %d: title is not the record's" % k)
        rec["library"] = name
        rec["number"] = number
        out.append(rec)
        at += (size + 4095) // 4096 * 4096
    return out


def main(paths):
    status = 0
    for p in paths:
        buf = open(p, "rb").read()
        try:
            if buf[:16] == b"CCBridgeLibrary\0":
                recs = library(buf)
            else:
                rec, end = record(buf)
                if end != len(buf):
                    raise ValueError("%d bytes after the tree" % (len(buf) - end))
                recs = [rec]
        except (ValueError, IndexError, struct.error, UnicodeDecodeError, KeyError) as e:
            print("%s: %s" % (p, e), file=sys.stderr)
            status = 1
            continue
        for r in recs:
            print(json.dumps(r, ensure_ascii=False, sort_keys=True))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
