#!/bin/sh
# Tune the built-in engine's evaluation on the shared corpus (tools/tune.c):
# build the tuner, take the positions (tools/tune-positions.py: quiet
# positions of the games with a result, one copy of each game, no copy of
# the held-out games the marks are measured on), fit, and write
# lib/eval_weights.c.  Then set XQ_EVAL_SCALE_BUILTIN (include/xq/analyse.h)
# to the scale the tuner says it fitted with, rebuild and run the tests.
#
# Usage: tools/tune.sh HELD-OUT.pgn [EPOCHS] [SCALE]
#        (from the top of the repository, after `make`; $XQ_SHARED or
#        ../shared for the corpus; the positions stay in build/, not in git)
set -eu
held=$1
epochs=${2:-1000}
scale=${3:-195}
shared=${XQ_SHARED:-../shared}
build=${BUILD:-build}
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -Iinclude -o "$build/tune" tools/tune.c \
	"$build/libxq.a" -lxml2 -lz -lpthread -lm
python3 tools/tune-positions.py --xqkit ./xqkit --exclude "$held" \
	"$shared/corpus/pgn" "$shared/corpus/xqf" > "$build/positions.tsv"
"$build/tune" --epochs "$epochs" --scale "$scale" --lambda 1e-8 "$build/positions.tsv" > "$build/eval_weights.c"
mv "$build/eval_weights.c" lib/eval_weights.c
