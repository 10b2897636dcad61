#!/usr/bin/env python3
"""pfc.py: an independent reader of PFC records, written from
doc/formats/pfc.md alone (not from xqkit's reader), with Python's own XML
parser, to read what xqkit writes.

Usage: pfc.py FILE...  Prints one JSON object per file: {"fen", "win",
"created", "comment", "main" (the main line in ICCS, space-separated:
the child marked default="true", else the first), "nodes" (moves in the
tree), "comments" (moves with a comment)}.  Exit status 1 when a file is
not what the page describes.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

MOVE = re.compile(r"^[a-i][0-9][a-i][0-9]$")


def main_child(node):
    kids = [k for k in node if k.tag == "n"]
    for k in kids:
        if k.get("default") == "true":
            return k
    return kids[0] if kids else None


def read(path):
    text = open(path, "rb").read().decode("utf-8-sig")
    if text.lstrip().startswith("[pfchessrecord]"):
        text = text[text.index("<!--") + 4:text.index("-->")].strip()
    root = ET.fromstring(text.encode("utf-8"))
    if root.tag != "n":
        raise ValueError("the root is <%s>" % root.tag)
    main, node = [], main_child(root)
    while node is not None:
        main.append(node.get("m"))
        node = main_child(node)
    nodes = comments = 0
    stack = list(root)
    while stack:
        x = stack.pop()
        if not MOVE.match(x.get("m", "")):
            raise ValueError("m=%r is not a move" % x.get("m"))
        nodes += 1
        comments += x.get("c") is not None
        stack.extend(x)
    return {"fen": root.get("m"), "win": root.get("win"), "created": root.get("create-time"),
            "comment": root.get("c"), "main": " ".join(main), "nodes": nodes,
            "comments": comments}


def main(paths):
    status = 0
    for p in paths:
        try:
            print(json.dumps(read(p), ensure_ascii=False, sort_keys=True))
        except (ValueError, ET.ParseError, UnicodeDecodeError) as e:
            print("%s: %s" % (p, e), file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
