#!/bin/sh
# Strength of the built-in engine: a match against Fairy-Stockfish.
#
# GAMES games (default 40), colours alternating, each pair of games from
# one of the 20 opening lines of tests/data/engine/openings.txt.  The
# built-in engine searches to depth XQ_DEPTH (default 8) per move;
# Fairy-Stockfish (UCI, one thread, hash cleared every move, Contempt 0)
# searches FS_NODES nodes (default 20000) per move.  Both are
# deterministic, so the same settings replay the same games.  Adjudicated
# by the rules core: no legal move loses (checkmate or stalemate); at the
# third occurrence of a position lib/rules.c judges the repetition (Asian
# rules: a perpetual check or chase loses, anything else draws); 120 plies
# without a capture or MAX_PLIES plies in all (default 300) is a draw.  One
# line per game with its moves, then the score of the built-in engine.
#
# Usage: bench/match.sh [GAMES] [FS_NODES] [XQ_DEPTH] [MAX_PLIES]
#        (builds the driver with `make bench-tools`; needs
#        /usr/games/fairy-stockfish: apt-get install fairy-stockfish)
set -eu
games=${1:-40}
fs_nodes=${2:-20000}
xqi_depth=${3:-8}
max_plies=${4:-300}
build=${BUILD:-build}
tool=$build/bench/xq-search
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
[ -x "$tool" ] || make -s bench-tools BUILD="$build" >/dev/null
[ -x "$fsf" ] || { echo "needs $fsf (apt-get install fairy-stockfish)" >&2; exit 3; }

echo "built-in at depth $xqi_depth against Fairy-Stockfish at $fs_nodes nodes, $games games"
exec "$tool" match --engine "$fsf" --nodes "$fs_nodes" --xq-depth "$xqi_depth" --games "$games" \
	--openings tests/data/engine/openings.txt --max-plies "$max_plies"
