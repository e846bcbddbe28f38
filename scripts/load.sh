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
#   scripts/load.sh --cluster LIST [TABLES [RATE [SECONDS]]]
#
# --cluster LIST (server counts joined by commas: 2, or 1,2,4) runs the
# same bench on the SQLite single process first, then, for each count N,
# against scripts/cluster.sh with N server processes on one PostgreSQL
# behind HAProxy (its own folder and ports; HAProxy spreads the
# connections round robin, so that the two players of a table are mostly
# on different processes and their moves go through the relay). KILL_AT=S
# also kills (-9) server 1 S seconds into each cluster run's moving phase;
# the bench then reconnects the tables' players through the balancer
# (--reconnect) and reports how long the tables took to accept moves
# again. RELAYS (postgresql, redis, or both joined by a comma: each count
# is run with each; default postgresql) picks how the servers send each
# other events (cluster.sh's RELAY). A cluster run also reports the CPU
# each part used while moving (servers, PostgreSQL's processes, Redis,
# HAProxy, the load generator; 100% is one core). A summary line per run
# ends the output.
#
# BUILD (default build) names the build folder; SERVE_OPTS replaces the
# server's options beside --host, --port and --db (by default its limits
# of tables and connections, per address and in all, are raised to fit);
# extra bench options go in BENCH_OPTS (e.g. --json).
set -eu
cd "$(dirname "$0")/.."
cluster=""
if [ "${1:-}" = "--cluster" ]; then
    cluster=${2:?"load.sh: --cluster needs a list of server counts (2, or 1,2,4)"}
    shift 2
fi
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
chmod 755 "$dir"
server_pid=""
cluster_env=()
# shellcheck disable=SC2317  # run by the trap
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ ${#cluster_env[@]} -gt 0 ]; then
        env "${cluster_env[@]}" scripts/cluster.sh stop || true
    fi
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM
summary=""

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
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
# shellcheck disable=SC2086
"$program" bench --server "ws://127.0.0.1:$port/ws" --tables "$tables" --rate "$rate" \
    --seconds "$seconds" --server-pid "$server_pid" ${BENCH_OPTS:-} | tee "$dir/sqlite.out" ||
    status=$?
[ -n "$cluster" ] || exit $status
kill -TERM "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=""

# The figures of a bench report for the summary: moves a second, p99, max.
figures() {
    sed -n -e 's/^moves .*: \([0-9]*\) a second.*/\1 moves\/s,/p' \
        -e 's/^move round trip *\(.*\)/\1,/p' -e 's/^lost moves *\([0-9]*\), duplicated \([0-9]*\).*/lost \1, duplicated \2/p' \
        -e 's/^after the kill .*; \(.*\) from the kill.*/; after the kill: \1/p' \
        -e 's/^cpu of the parts *\(.*\)/cpu: \1;/p' "$1" | tr '\n' ' '
}

# The bench's --cpu options for the cluster of environment "$@": its
# servers, PostgreSQL (the postmaster and its children), HAProxy, Redis.
cpu_options() {
    env "$@" scripts/cluster.sh status | awk '
        $1 == "server" && $7 == "running" { servers = servers (servers ? "," : "") $4 }
        $1 == "haproxy" && $3 != "-" { balancers = balancers (balancers ? "," : "") $3 }
        $1 == "redis" && $3 != "-" { print "--cpu redis=" $3 }
        $1 == "postgresql" && $3 != "-" { print "PG " $3 }
        END { if (servers) print "--cpu servers=" servers
              if (balancers) print "--cpu haproxy=" balancers }' | while read -r a b; do
        if [ "$a" = PG ]; then
            echo "--cpu postgresql=$(ps -o pid= --ppid "$b" | tr -d ' ' | tr '\n' ',')$b"
        else
            echo "$a $b"
        fi
    done | tr '\n' ' '
}
summary="sqlite, 1 process: $(figures "$dir/sqlite.out")"

# A block of free ports: the balancer's, the servers' after it, and
# PostgreSQL's 1000 above and Redis's 2000 above (cluster.sh).
free_port() {
    python3 - "$1" <<'PY'
import random, socket, sys
n = int(sys.argv[1])
for _ in range(500):
    p = random.randint(20000, 29000)
    try:
        for q in list(range(p, p + n + 1)) + [p + 1000, p + 2000]:
            with socket.socket() as s:
                s.bind(("127.0.0.1", q))
        print(p)
        break
    except OSError:
        pass
PY
}

# HAProxy holds two descriptors a connection (client and server side):
# as many balancers on the port as the open files limit needs (2 on a
# machine whose hard limit is 20,000, for 5,000 tables).
limit=$(ulimit -H -n)
[ "$limit" = unlimited ] && limit=1048576
balancers=$(((4 * tables + 1024 + limit - 1) / limit))

for n in $(echo "$cluster" | tr ',' ' '); do
for relay in $(echo "${RELAYS:-postgresql}" | tr ',' ' '); do
    cport=$(free_port "$n")
    cluster_env=("CLUSTER_DIR=$dir/cluster-$n-$relay" "PORT=$cport" "CARC=$PWD/$program"
        BALANCE=roundrobin "RELAY=$relay" "BALANCERS=$balancers")
    env "${cluster_env[@]}" SERVE_ARGS="${SERVE_OPTS:-$limits}" scripts/cluster.sh start --servers "$n"
    extra="$(cpu_options "${cluster_env[@]}")"
    if [ -n "${KILL_AT:-}" ]; then
        victim=$(env "${cluster_env[@]}" scripts/cluster.sh status | awk '$1 == "server" && $2 == 1 {print $4}')
        extra="$extra --reconnect --kill-pid $victim --kill-at $KILL_AT"
    fi
    echo "cluster of $n, relay $relay: $tables tables, $rate moves/s for $seconds s through HAProxy on port $cport"
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
    out="$dir/cluster-$n-$relay.out"
    # shellcheck disable=SC2086
    "$program" bench --server "ws://127.0.0.1:$cport/ws" --tables "$tables" --rate "$rate" \
        --seconds "$seconds" $extra ${BENCH_OPTS:-} | tee "$out" || status=$?
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
    summary="$summary
postgresql, $n processes, relay $relay: $(figures "$out")"
    env "${cluster_env[@]}" scripts/cluster.sh stop
    cluster_env=()
done
done
echo "== summary ($tables tables, $rate moves/s offered, $seconds s)"
echo "$summary"
exit $status
