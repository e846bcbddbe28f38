#!/bin/sh
# play.sh: the main job. Installs what is missing, builds, starts the game
# server on this machine and prints the address of a ready game against the
# computer: open it in a browser. Ctrl-C stops the server; the games are
# kept in $XDG_DATA_HOME/carcassonne/server.db (default
# ~/.local/share/carcassonne/server.db) and go on at the next start.
#
#   scripts/play.sh                   the browser game (PORT=N for another port)
#   scripts/play.sh --terminal [ARGS] the terminal game instead; ARGS go to
#                                     `carcassonne play` (see its --help)
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null

if [ "${1:-}" = "--terminal" ]; then
    shift
    exec build/carcassonne play "$@"
fi

data=${XDG_DATA_HOME:-$HOME/.local/share}/carcassonne
mkdir -p "$data"
port=${PORT:-8080}
echo "Starting the game server on 127.0.0.1:$port (Ctrl-C stops it)..."
build/carcassonne serve --port "$port" --db "$data/server.db" "$@" | while IFS= read -r line; do
    case $line in
    "listening on "*)
        address=${line#listening on }
        echo "Ready. Open $address/?play=normal for a game against the computer,"
        echo "or $address/ for the lobby (friends, invitations, levels, rules)."
        ;;
    *) echo "$line" ;;
    esac
done
