#!/bin/sh
# The main job on what ships in the repository: check the bundled sample
# records (samples/, real games in several formats and encodings, a few
# damaged on purpose), replay one, convert them all, annotate one with the
# built-in engine, make a web page of a game it scored (xqkit-demo.html,
# the one file the demo leaves, in the current folder), and prove the move
# generator against the reference perft suite.
set -u
xqkit=${1:-./xqkit}
out=$(mktemp -d) || exit 3
trap 'rm -rf "$out"' EXIT INT TERM

echo "== xqkit validate -r samples (the damaged samples are reported; status 1 is expected)"
"$xqkit" validate -r samples
echo "   exit status $?"
echo
echo "== xqkit replay --ply 12 --board unicode samples/liu-dahua-1956.ndjson.gz"
"$xqkit" replay --ply 12 --board unicode --svg "$out/ply12.svg" samples/liu-dahua-1956.ndjson.gz
echo "   (an SVG diagram of that position was written too: $(wc -c < "$out/ply12.svg") bytes)"
echo
echo "== xqkit convert -t ndjson -r --verify -o DIR/ samples (one file per game, read back and compared)"
"$xqkit" convert -t ndjson -r --verify -o "$out/games/" --name '{file}-{game}' -v samples
echo "   exit status $?"
echo
echo "== xqkit annotate --depth 4 --pv-threshold 100 samples/endgame-big5.pgn (the built-in engine scores every move)"
"$xqkit" annotate --depth 4 --pv-threshold 100 samples/endgame-big5.pgn
echo "   exit status $?"
echo
echo "== xqkit annotate --depth 6 -t html -o xqkit-demo.html samples/liu-dahua-1956.ndjson.gz"
"$xqkit" annotate -q --depth 6 -t html --force -o xqkit-demo.html samples/liu-dahua-1956.ndjson.gz
echo "   exit status $?: open xqkit-demo.html in a browser ($(wc -c < xqkit-demo.html) bytes, no network needed)"
echo
echo "== xqkit perft --suite tests/data/perft.tsv --max-depth 4 (reference counts from two engines)"
"$xqkit" perft --suite tests/data/perft.tsv --max-depth 4 || exit $?
