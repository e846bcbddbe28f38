#!/bin/sh
# play.sh: the main job. Installs what playing needs when it is missing
# (scripts/deps.sh, not the test tools), builds the program with its
# progress shown, starts the game server on this machine and prints the
# address of a ready game against the computer: open it in a browser.
# Ctrl-C stops the server; the games are kept in
# $XDG_DATA_HOME/carcassonne/server.db (default
# ~/.local/share/carcassonne/server.db) and go on at the next start.
#
#   scripts/play.sh                   the browser game (PORT=N for another port)
#   scripts/play.sh --terminal [ARGS] the terminal game instead; ARGS go to
#                                     `carcassonne play` (see its --help)
#   CARCASSONNE=PROGRAM scripts/play.sh
#                                     play with PROGRAM as built: no
#                                     install, no build
#
# Exit status: 1 when the build fails or the port is in use, 2 for a PORT
# that is not a number, else the server's (130 after Ctrl-C).
set -eu
cd "$(dirname "$0")/.."

log=build/play-build.log

# Prints cmake's progress (its "[ 45%]" lines: the Makefile generator) on one
# line on a terminal, every tenth on separate lines elsewhere; keeps the
# whole output in $log.
show_progress() {
    shown=-10
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$log"
        case $line in
        "["*"%]"*) p=${line#"["} && p=${p%%"%]"*} && p=${p##* } ;;
        *) continue ;;
        esac
        if [ -t 1 ]; then
            printf '\rBuilding: %3s%%' "$p"
        elif [ "$p" -ge $((shown + 10)) ] || [ "$p" -eq 100 ]; then
            echo "Building: $p%"
            shown=$p
        fi
    done
    if [ -t 1 ]; then echo; fi
}

build_failed() {
    echo "play.sh: the build failed; its last lines (all of it in $log):" >&2
    tail -n 20 "$log" >&2
    exit 1
}

# Configures (with the tests only when cmocka, a test tool, is there) and
# builds the program alone.
build() {
    mkdir -p build
    : >"$log"
    tests=OFF
    if pkg-config --exists cmocka 2>/dev/null; then tests=ON; fi
    if [ ! -x build/carcassonne ]; then
        echo "Building build/carcassonne (the first build takes a minute or two)..."
    fi
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCARC_TESTS=$tests >>"$log" 2>&1 ||
        build_failed
    status=$(mktemp)
    { cmake --build build --target carcassonne_cli -j"$(nproc)" 2>&1; echo $? >"$status"; } |
        show_progress
    rc=$(cat "$status")
    rm -f "$status"
    [ "$rc" -eq 0 ] || build_failed
}

# Whether something answers on 127.0.0.1:$1 (bash's /dev/tcp; bash is
# always there on Debian).
port_answers() {
    command -v bash >/dev/null 2>&1 && bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

port_in_use() {
    echo "port $port is in use: try PORT=$((port + 1)) scripts/play.sh" >&2
    exit 1
}

if [ -n "${CARCASSONNE:-}" ]; then
    program=$CARCASSONNE
else
    scripts/deps.sh
    build
    program=build/carcassonne
fi

if [ "${1:-}" = "--terminal" ]; then
    shift
    exec "$program" play "$@"
fi

port=${PORT:-8080}
case $port in
'' | *[!0-9]*)
    echo "play.sh: PORT must be a port number, not '$port'" >&2
    exit 2
    ;;
esac
if port_answers "$port"; then port_in_use; fi

data=${XDG_DATA_HOME:-$HOME/.local/share}/carcassonne
mkdir -p "$data"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
echo "Starting the game server on 127.0.0.1:$port (Ctrl-C stops it)..."
# The server's output, its exit status kept in a file (sh has no
# pipefail); a port taken between the check above and the server's bind
# shows as the server's "cannot listen ...: Address already in use" (or,
# from an older build, libwebsockets' bind error with errno 98), said in
# one line instead.
{ "$program" serve --port "$port" --db "$data/server.db" "$@" 2>&1; echo $? >"$tmp/status"; } |
    while IFS= read -r line; do
        case $line in
        "listening on "*)
            address=${line#listening on }
            echo "Ready. Open $address/?play=normal for a game against the computer,"
            echo "or $address/ for the lobby (friends, invitations, levels, rules)."
            ;;
        *"ERROR on binding"*"(-1 98)"* | "carcassonne serve: cannot listen on "*": Address already in use")
            : >"$tmp/in-use" ;;
        "["*"] E: init server failed" | "["*"] E: Failed to create default vhost") ;;
        "carcassonne serve: cannot listen on "*) [ -e "$tmp/in-use" ] || echo "$line" >&2 ;;
        *) echo "$line" ;;
        esac
    done
if [ -e "$tmp/in-use" ]; then port_in_use; fi
exit "$(cat "$tmp/status" 2>/dev/null || echo 1)"
