#!/bin/sh
# web-bench.sh: the browser client's figures on loopback (not a test):
# time from opening a table's address to a playable board, bytes
# downloaded on a first load, frame time while panning a full board.
# Builds first; RUNS (default 5) sets the number of cold loads.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh --test
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
WEB_SCRIPT=bench.mjs exec sh tests/web/run.sh "$PWD/build/tests/web" "$PWD/build/carcassonne"
