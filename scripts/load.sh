#!/bin/bash
# load.sh: the game server's load benchmark. Starts a fresh server on a
# temporary database on 127.0.0.1 (a free port), runs `carcassonne bench
# --server` against it (TABLES tables of two scripted players, 2 x TABLES
# WebSocket connections on one event loop, RATE moves a second in all for
# SECONDS seconds) and stops the server. Prints the bench's report: tables
# and connections held, moves a second, the move round trip p50/p99/max,
# server memory per idle and per active table, lost and duplicated moves.
#
#   scripts/load.sh [TABLES [RATE [SECONDS]]]     (default 5000 1000 20)
#
# BUILD (default build) names the build folder; SERVE_OPTS replaces the
# server's options beside --host, --port and --db (by default its limits
# of tables and connections, per address and in all, are raised to fit);
# extra bench options go in BENCH_OPTS (e.g. --json).
set -eu
cd "$(dirname "$0")/.."
tables=${1:-5000}
rate=${2:-1000}
seconds=${3:-20}
build=${BUILD:-build}
program="$build/carcassonne"
[ -x "$program" ] || { echo "load.sh: build first ($program is missing)" >&2; exit 2; }

# Two descriptors a table on each side, and some to spare.
want=$((2 * tables + 1024))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want" ]; then
    ulimit -n "$want" 2>/dev/null || ulimit -n "$(ulimit -H -n)"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/carc-load.XXXXXX")
server_pid=""
# shellcheck disable=SC2317  # run by the trap
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM

limits="--max-tables $((tables + 100)) --max-tables-per-ip $((tables + 100))"
limits="$limits --max-conns-per-ip $((2 * tables + 100))"
# shellcheck disable=SC2086
"$program" serve --host 127.0.0.1 --port 0 --db "$dir/load.db" ${SERVE_OPTS:-$limits} \
    >"$dir/server.log" 2>&1 &
server_pid=$!
port=""
i=0
while [ -z "$port" ] && [ $i -lt 300 ]; do
    port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$dir/server.log" | head -n 1)
    kill -0 "$server_pid" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    [ -n "$port" ] || sleep 0.1
    i=$((i + 1))
done
[ -n "$port" ] || { echo "load.sh: the server did not start" >&2; cat "$dir/server.log" >&2; exit 1; }

echo "server pid $server_pid on port $port; $tables tables, $rate moves/s for $seconds s"
status=0
# shellcheck disable=SC2086
"$program" bench --server "ws://127.0.0.1:$port/ws" --tables "$tables" --rate "$rate" \
    --seconds "$seconds" --server-pid "$server_pid" ${BENCH_OPTS:-} || status=$?
exit $status
