#!/usr/bin/env python3
"""doc/api.md against include/xq/*.h: every public function's declaration
in the doc is its header's, to the letter (white space aside), and every
function the doc declares is in a header, so the reference cannot drift
from the contract.  Usage: tests/api-doc.py (from the top of the tree)."""
import glob
import re
import sys


def norm(s):
    s = re.sub(r'\s+', ' ', s)
    return s.replace('( ', '(').replace(' )', ')').strip()


def declarations(text, start):
    """(name, declaration) for each `start` match: the text from it to the
    parenthesis that closes the parameter list."""
    for m in start.finditer(text):
        i = text.index('(', m.end('name'))
        depth = 0
        for j in range(i, len(text)):
            depth += {'(': 1, ')': -1}.get(text[j], 0)
            if depth == 0:
                break
        yield m.group('name'), norm(text[m.start('decl'):j + 1])


header = {}
for path in sorted(glob.glob('include/xq/*.h')):
    text = open(path, encoding='utf-8').read()
    start = re.compile(r'^XQ_API (?P<decl>[^;(]*?\b(?P<name>xq_\w+))\s*\(', re.M)
    for name, decl in declarations(text, start):
        header[name] = (decl, path)

doc = {}
text = open('doc/api.md', encoding='utf-8').read()
# A declaration in a C block: a line that starts with a type (words and
# stars, no call, no assignment) and names a function.
start = re.compile(r'^(?P<decl>(?!return\b|if\b|static\b|while\b|for\b)[A-Za-z_][\w ]*[\w*]\s*\**\s*(?P<name>xq_\w+))\s*\(', re.M)
for block in re.findall(r'^```c\n(.*?)^```', text, re.M | re.S):
    for name, decl in declarations(block, start):
        doc.setdefault(name, []).append(decl)

bad = 0
for name, (decl, path) in sorted(header.items()):
    if name not in doc:
        print(f"FAIL api-doc: {name} ({path}) is declared nowhere in doc/api.md")
        bad += 1
    elif decl not in doc[name]:
        print(f"FAIL api-doc: {name}: doc/api.md says\n    {doc[name][0]}\n  where {path} says\n    {decl}")
        bad += 1
for name in sorted(set(doc) - set(header)):
    print(f"FAIL api-doc: doc/api.md declares {name}, which no public header does")
    bad += 1
if bad:
    print(f"api-doc: {bad} declarations of doc/api.md differ from the headers")
    sys.exit(1)
print(f"api-doc: the {len(header)} public functions are declared in doc/api.md as in their headers")
