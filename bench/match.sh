#!/bin/sh
# Strength of the built-in engine: a match, with the result as Elo and its
# 95% error bar.
#
# The opponent is Fairy-Stockfish (the default) or another build of the
# built-in engine: OLD=path/to/xq-search of that build (for instance the
# start of a branch: git worktree add /tmp/old START && make -C /tmp/old
# bench-tools, then OLD=/tmp/old/build/bench/xq-search), which plays
# through its `uci` loop.  GAMES games (default 40), colours alternating,
# each pair of games from one of the 20 opening lines of
# tests/data/engine/openings.txt.  Both sides search a fixed number of
# nodes per move, the built-in engine XQ_NODES (default 20000), the
# opponent NODES (default 20000; one thread, hash cleared every move,
# Contempt 0 for Fairy-Stockfish), so the same settings replay the same
# games.  Adjudicated by the rules core: no legal move loses (checkmate or
# stalemate); at the third occurrence of a position lib/rules.c judges the
# repetition (Asian rules: a perpetual check or chase loses, anything else
# draws); 120 plies without a capture or MAX_PLIES plies in all (default
# 300) is a draw.  One line per game with its moves, the score of the
# built-in engine, then its Elo difference: -400 log10(1/p - 1) for the
# score p, and the same for p -+ 1.96 standard errors (the standard error
# from the spread of the game results: wins, draws and losses).
#
# Usage: [OLD=xq-search] bench/match.sh [GAMES] [NODES] [XQ_NODES] [MAX_PLIES]
#        (builds the driver with `make bench-tools`; BUILD=dir for another
#        build directory; Fairy-Stockfish: $FAIRY_STOCKFISH, else
#        /usr/games/fairy-stockfish: apt-get install fairy-stockfish)
set -eu
games=${1:-40}
nodes=${2:-20000}
xq_nodes=${3:-20000}
max_plies=${4:-300}
build=${BUILD:-build}
tool=$build/bench/xq-search
[ -x "$tool" ] || make -s bench-tools BUILD="$build" >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ -n "${OLD:-}" ]; then
	[ -x "$OLD" ] || { echo "OLD=$OLD is not a program" >&2; exit 3; }
	case $OLD in /*) old=$OLD ;; *) old=$(pwd)/$OLD ;; esac
	printf '#!/bin/sh\nexec "%s" uci\n' "$old" > "$tmp/opponent"
	chmod +x "$tmp/opponent"
	opponent=$tmp/opponent
	what="the built-in engine of $OLD"
else
	opponent=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
	[ -x "$opponent" ] || { echo "needs $opponent (apt-get install fairy-stockfish)" >&2; exit 3; }
	what="Fairy-Stockfish ($opponent)"
fi

echo "built-in at $xq_nodes nodes against $what at $nodes nodes, $games games"
"$tool" match --engine "$opponent" --nodes "$nodes" --xq-nodes "$xq_nodes" --games "$games" \
	--openings tests/data/engine/openings.txt --max-plies "$max_plies" | tee "$tmp/games"
# The score line: "built-in vs NAME: +W =D -L (A aborted): ...".
sed -n 's/.*: +\([0-9]*\) =\([0-9]*\) -\([0-9]*\) (.*/\1 \2 \3/p' "$tmp/games" | tail -1 |
	awk '{
		w = $1; d = $2; l = $3; n = w + d + l
		if (n == 0) { print "no game finished"; exit }
		p = (w + d / 2) / n
		v = (w * (1 - p) ^ 2 + d * (0.5 - p) ^ 2 + l * p ^ 2) / n
		se = sqrt(v / n)
		printf "score %.1f%% of %d games: Elo %s (95%%: %s to %s)\n", 100 * p, n, elo(p),
			elo(p - 1.96 * se), elo(p + 1.96 * se)
	}
	function elo(x) {
		if (x <= 0) return "-inf"
		if (x >= 1) return "+inf"
		e = -400 * log(1 / x - 1) / log(10)
		return sprintf("%+.0f", e == 0 ? 0 : e)
	}'
