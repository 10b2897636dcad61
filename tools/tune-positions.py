#!/usr/bin/env python3
"""Positions for tuning the built-in engine's evaluation (tools/tune.c).

Reads every game of the given inputs (directories are read recursively)
with xqkit, and writes one line per position kept, "FEN<TAB>RESULT", where
RESULT is red's score in the game: 1, 0.5 or 0.  Kept: games with a
result (1-0, 0-1, 1/2-1/2), one copy of each game (`xqkit dedupe
--prefix --mirror`: the same main line, or the start of a longer one, in
any file or format, mirrored or not), no copy of a game of the held-out
files given with --exclude (they are the games the marks are measured on,
never tuned on), and within a game the quiet positions from ply 10 on:
neither the move that led to it nor the move played from it captured
(the halfmove clocks of the two FENs).

usage: tools/tune-positions.py [--xqkit PATH] [--exclude FILE]... INPUT... > positions.tsv
"""
import argparse
import json
import subprocess
import sys

RESULT = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}


def ndjson(cmd):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False).stdout
    for line in out.decode("utf-8").splitlines():
        if line.startswith("{"):
            yield json.loads(line)


def key(src):
    return (src["file"], src.get("game", 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xqkit", default="./xqkit")
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    xq = a.xqkit
    # Copies: every member of a group but its first is dropped, and every
    # member of a group that holds a held-out game.
    drop = set()
    groups = ndjson([xq, "dedupe", "--prefix", "--mirror", "--format", "ndjson", "-r", "-q"]
                    + a.exclude + a.inputs)
    for g in groups:
        if g.get("schema") != "xqkit.group/1":
            continue
        members = [key(m["source"]) for m in g["members"]]
        held = any(m[0] in a.exclude for m in members)
        for i, m in enumerate(members):
            if held or i > 0:
                drop.add(m)
    results = {}
    for r in ndjson([xq, "find", "--list", "-r", "-q"] + a.inputs):
        k = key(r["source"])
        if r["result"] in RESULT and k not in drop:
            results[k] = RESULT[r["result"]]
    seen = set()
    kept = 0
    prev = None
    for p in ndjson([xq, "replay", "--output-format", "ndjson", "-r", "-q"] + a.inputs):
        if p.get("schema") != "xqkit.ply/1":
            continue
        k = (p["file"], p["game"])
        if p["ply"] == 0:
            if k in results:
                seen.add(k)
            prev = None
        if k not in results:
            continue
        # prev is the position before this one: keep it when this move
        # did not capture (this FEN's clock is not 0) and neither did the
        # move that reached it.
        clock = int(p["fen"].split()[4])
        if prev and prev[1] >= 10 and prev[2] != 0 and clock != 0:
            print(prev[0] + "\t" + results[k])
            kept += 1
        prev = (p["fen"], p["ply"], clock)
    print(f"{len(seen)} games, {kept} positions", file=sys.stderr)


main()
