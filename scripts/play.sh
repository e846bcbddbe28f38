#!/bin/sh
# play.sh: the main job. Installs what is missing, builds, and starts a
# game in the terminal: you against the computer. Arguments go to
# `carcassonne play` (e.g. --players human,mcts:level=hard, --load FILE;
# see `build/carcassonne play --help`).
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/carcassonne play "$@"
