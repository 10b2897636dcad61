"""games.py: records made up for the browser tests and benchmarks.

long_game(plies, every, depth) is a legal game of `plies` plies in PGN with
ICCS moves, with a variation every `every` plies whose own lines hold
variations `depth` levels deep.  Only the four horses move, each between
its home and its first square (h0-g2, b0-c2, h9-g7, b9-c7): every such
move is legal whatever the others did, so any sequence of them is a game.
"""

MOVES = {
    ("w", "h"): ("h0g2", "g2h0"), ("w", "b"): ("b0c2", "c2b0"),
    ("b", "h"): ("h9g7", "g7h9"), ("b", "b"): ("b9c7", "c7b9"),
}


def _move(state, side, piece):
    key = (side, piece)
    move = MOVES[key][state.get(key, 0)]
    after = dict(state)
    after[key] = 1 - state.get(key, 0)
    return move, after


def _other(side):
    return "b" if side == "w" else "w"


def _variation(state, side, depth, length):
    """Tokens of a line that starts with the b-horse of `side` (so it is an
    alternative to an h-horse move), with a variation in it while depth
    lasts."""
    move, state = _move(state, side, "b")
    tokens = [move]
    side = _other(side)
    for i in range(1, length):
        move, after = _move(state, side, "h")
        tokens.append(move)
        if i == 2 and depth > 1:
            tokens.append("(" + " ".join(_variation(state, side, depth - 1, length)) + ")")
        state, side = after, _other(side)
    return tokens


def long_game(plies=1000, every=25, depth=6, length=8):
    state, side, tokens = {}, "w", []
    for ply in range(1, plies + 1):
        move, after = _move(state, side, "h")
        if side == "w":
            tokens.append("%d." % ((ply + 1) // 2))
        tokens.append(move)
        if ply % every == 0:
            tokens.append("(" + " ".join(_variation(state, side, depth, length)) + ")")
        state, side = after, _other(side)
    lines, line = [], ""
    for t in tokens + ["*"]:
        if len(line) + len(t) > 78:
            lines.append(line)
            line = ""
        line += (" " if line else "") + t
    lines.append(line)
    return ('[Event "A long game with deep variations"]\n[Red "Red"]\n[Black "Black"]\n\n'
            + "\n".join(lines) + "\n")
