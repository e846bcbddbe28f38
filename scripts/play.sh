#!/bin/sh
# play.sh: the main job. Installs what is missing, builds, and starts a
# game. Until the terminal game exists: a self-play game between random
# players, shown move by move. Extra arguments go to `carcassonne show`.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
seed=${SEED:-$(date +%s)}
record=${TMPDIR:-/tmp}/carcassonne-selfplay-$seed.rec
build/carcassonne selfplay --seed "$seed" --players 2 --record "$record" >/dev/null
build/carcassonne show --step --delay "${DELAY:-250}" "$@" "$record"
echo "The record of this game is $record (replay it: build/carcassonne replay $record)."
