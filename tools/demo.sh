#!/bin/sh
# The main job on what ships in the repository: prove the move generator
# against the bundled reference suite and show its speed.
set -eu
xqkit=${1:-./xqkit}
echo "== xqkit perft --suite tests/data/perft.tsv --max-depth 4 (reference counts from two engines)"
"$xqkit" perft --suite tests/data/perft.tsv --max-depth 4
echo
echo "== xqkit perft 5 (start position)"
"$xqkit" perft 5
