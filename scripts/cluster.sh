#!/bin/sh
# cluster.sh: the game server as several processes on one PostgreSQL behind
# HAProxy, all on this machine: for trying it out, for the tests and for
# the load benchmark (docs/scale.md).
#
#   scripts/cluster.sh start [--servers N]   PostgreSQL, N servers (default 2,
#                                            or as many as the last start),
#                                            HAProxy; prints 'listening on
#                                            http://HOST:PORT'. On a running
#                                            cluster, starts the servers that
#                                            are missing.
#   scripts/cluster.sh status                a line per server: its pid and port
#   scripts/cluster.sh stop                  stops them all
#
# Environment: PORT, the balancer's port (default: the last start's, else
# 8080; server i listens on PORT+i; a cluster that runs on another port is
# stopped first); HOST (default 127.0.0.1); CLUSTER_DIR, the folder of
# the data, logs and pids, whatever the current folder (default
# $XDG_STATE_HOME/carcassonne/cluster, ~/.local/state/carcassonne/cluster
# without it; as root /var/lib/carcassonne/cluster, for PostgreSQL runs as
# `nobody`, who cannot enter /root); CARC, the program (default
# build/carcassonne of the source tree); SERVE_ARGS, more options for every
# `carcassonne serve` (default none: HAProxy passes each client's address
# with the PROXY protocol, send-proxy-v2, and every server trusts
# 127.0.0.1 for it, so the per-address limits hold); BALANCE, HAProxy's balance algorithm
# (default source: a client's address picks its server, so that it comes
# back to it; roundrobin spreads one address's connections, as the load
# benchmark wants); BALANCERS, how many HAProxy processes share the port
# (default 1; each holds about half its open files limit in connections,
# so that a machine whose limit cannot be raised holds more with two);
# RELAY, how the servers send each other events:
# postgresql (the default, LISTEN/NOTIFY) or redis (a redis-server of the
# cluster's own, in CLUSTER_DIR/redis on 127.0.0.1, port PORT+2000, no
# persistence). PostgreSQL runs from its own data folder, listening on a
# Unix socket in CLUSTER_DIR only, as the user `nobody` when run as root
# (PostgreSQL refuses root).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${CLUSTER_DIR:-}" ]; then
    if [ -n "${XDG_STATE_HOME:-}" ]; then
        CLUSTER_DIR=$XDG_STATE_HOME/carcassonne/cluster
    elif [ "$(id -u)" -eq 0 ]; then
        CLUSTER_DIR=/var/lib/carcassonne/cluster
    else
        CLUSTER_DIR=$HOME/.local/state/carcassonne/cluster
    fi
fi
# The port of the last start (written at each start).
last_port=$(cat "$CLUSTER_DIR/port" 2>/dev/null || true)
PORT=${PORT:-${last_port:-8080}}
case "$PORT" in
"" | *[!0-9]*) echo "cluster.sh: PORT must be a number, not '$PORT'" >&2 && exit 1 ;;
esac
HOST=${HOST:-127.0.0.1}
CARC=${CARC:-$root/build/carcassonne}
SERVE_ARGS=${SERVE_ARGS:-}
BALANCE=${BALANCE:-source}
BALANCERS=${BALANCERS:-1}
case "$BALANCERS" in
"" | *[!0-9]* | 0*) echo "cluster.sh: BALANCERS must be a whole number from 1" >&2 && exit 1 ;;
esac
RELAY=${RELAY:-postgresql}
case "$RELAY" in
postgresql | redis) ;;
*) echo "cluster.sh: RELAY must be postgresql or redis, not '$RELAY'" >&2 && exit 1 ;;
esac

die() {
    echo "cluster.sh: $*" >&2
    exit 1
}

command=${1:-}
[ $# -gt 0 ] && shift
servers=""
while [ $# -gt 0 ]; do
    case "$1" in
    --servers)
        [ $# -ge 2 ] || die "--servers needs a number"
        servers=$2
        shift 2
        ;;
    *) die "unknown argument '$1' (start|stop|status [--servers N])" ;;
    esac
done
case "$servers" in
"" | *[!0-9]* | 0*) [ -z "$servers" ] || die "--servers must be a whole number from 1" ;;
esac

pgbin=""
for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && pgbin=$d
done
pgport=$((PORT + 1000))
redisport=$((PORT + 2000))
as_db() { "$@"; }
[ "$(id -u)" -eq 0 ] && as_db() { runuser -u nobody -- "$@"; }
uri() { echo "postgresql://carc@/carc?host=$CLUSTER_DIR/pg&port=$pgport"; }

# Whether any process of the cluster runs: its servers, balancers, Redis
# or PostgreSQL.
running() {
    for pidfile in "$CLUSTER_DIR"/server-*.pid "$CLUSTER_DIR"/haproxy*.pid "$CLUSTER_DIR/redis.pid"; do
        alive "$pidfile" && return 0
    done
    [ -n "$pgbin" ] && [ -d "$CLUSTER_DIR/pg/data" ] &&
        as_db "$pgbin/pg_ctl" -D "$CLUSTER_DIR/pg/data" status >/dev/null 2>&1
}

# Whether the process of pid file $1 runs (a zombie, killed and not yet
# reaped, does not).
alive() {
    [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null &&
        ! grep -q '^[0-9]* (.*) Z' "/proc/$(cat "$1")/stat" 2>/dev/null
}

pg_start() {
    [ -n "$pgbin" ] || die "PostgreSQL not found (scripts/deps.sh --test installs it)"
    mkdir -p "$CLUSTER_DIR/pg"
    [ "$(id -u)" -eq 0 ] && chown nobody "$CLUSTER_DIR/pg"
    chmod 755 "$CLUSTER_DIR" "$CLUSTER_DIR/pg"
    as_db test -w "$CLUSTER_DIR/pg" ||
        die "PostgreSQL runs as nobody, who cannot reach $CLUSTER_DIR: set CLUSTER_DIR to a folder it can"
    if [ ! -f "$CLUSTER_DIR/pg/data/PG_VERSION" ]; then
        as_db "$pgbin/initdb" -D "$CLUSTER_DIR/pg/data" -U carc --auth=trust --locale=C -E UTF8 \
            >"$CLUSTER_DIR/initdb.log" 2>&1 || die "initdb failed: see $CLUSTER_DIR/initdb.log"
        # Every live table holds an advisory lock in PostgreSQL's shared lock
        # table (max_locks_per_transaction x max_connections entries).
        cat >>"$CLUSTER_DIR/pg/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$CLUSTER_DIR/pg'
max_locks_per_transaction = 1024
EOF
    fi
    if ! as_db "$pgbin/pg_ctl" -D "$CLUSTER_DIR/pg/data" status >/dev/null 2>&1; then
        # This start's port, in the configuration (a pg_ctl start by hand
        # finds it there too).
        as_db sed -i '/^port = /d' "$CLUSTER_DIR/pg/data/postgresql.conf"
        echo "port = $pgport" | as_db tee -a "$CLUSTER_DIR/pg/data/postgresql.conf" >/dev/null
        as_db "$pgbin/pg_ctl" -D "$CLUSTER_DIR/pg/data" -l "$CLUSTER_DIR/pg/postgres.log" -w \
            start >/dev/null || die "PostgreSQL did not start: see $CLUSTER_DIR/pg/postgres.log"
    fi
    as_db "$pgbin/psql" -h "$CLUSTER_DIR/pg" -p "$pgport" -U carc -d postgres -Atqc \
        "SELECT 1 FROM pg_database WHERE datname='carc'" | grep -q 1 ||
        as_db "$pgbin/createdb" -h "$CLUSTER_DIR/pg" -p "$pgport" -U carc carc
}

# The cluster's own redis-server (RELAY=redis), unless it runs: in
# CLUSTER_DIR/redis, on 127.0.0.1 only, nothing saved to disk (pub/sub
# keeps nothing).
redis_start() {
    command -v redis-server >/dev/null 2>&1 ||
        die "redis-server not found (scripts/deps.sh --test installs it)"
    pidfile="$CLUSTER_DIR/redis.pid"
    alive "$pidfile" && return 0
    mkdir -p "$CLUSTER_DIR/redis"
    redis-server --bind 127.0.0.1 --port "$redisport" --dir "$CLUSTER_DIR/redis" \
        --save "" --appendonly no --daemonize yes --pidfile "$pidfile" \
        --logfile "$CLUSTER_DIR/redis/redis.log" >/dev/null ||
        die "redis-server did not start: see $CLUSTER_DIR/redis/redis.log"
    tries=0
    until [ "$(redis-cli -h 127.0.0.1 -p "$redisport" ping 2>/dev/null)" = PONG ]; do
        tries=$((tries + 1))
        [ $tries -lt 100 ] || die "redis-server not ready after 10 s: see $CLUSTER_DIR/redis/redis.log"
        sleep 0.1
    done
}

relay_args() {
    [ "$RELAY" = redis ] && echo "--relay redis://127.0.0.1:$redisport"
    return 0
}

# Starts server $1 unless it runs; waits for its ready line.
server_start() {
    i=$1
    port=$((PORT + i))
    pidfile="$CLUSTER_DIR/server-$i.pid"
    alive "$pidfile" && return 0
    log="$CLUSTER_DIR/server-$i.log"
    : >"$log"
    # HAProxy, on this machine, says whose connection it passes on
    # (send-proxy-v2): the servers trust 127.0.0.1 for it.
    # shellcheck disable=SC2086,SC2046  # SERVE_ARGS and the relay options are word lists
    nohup "$CARC" serve --host 127.0.0.1 --port "$port" --db "$(uri)" --trusted-proxy 127.0.0.1 \
        $(relay_args) $SERVE_ARGS >>"$log" 2>&1 </dev/null &
    echo $! >"$pidfile"
    tries=0
    until grep -q "^listening on" "$log"; do
        alive "$pidfile" || die "server $i did not start: see $log"
        tries=$((tries + 1))
        [ $tries -lt 300 ] || die "server $i not ready after 30 s: see $log"
        sleep 0.1
    done
}

# HAProxy in front: the servers by their client's address by default (a
# client comes back to the server it was on while that one lives; any
# server relays what another one runs), a dead one noticed
# within a second (a TCP check every 500 ms) and its clients sent to the
# others; WebSocket connections kept an hour. Each connection to a server
# begins with the PROXY protocol v2 header that carries the client's
# address (send-proxy-v2; the checks send a LOCAL one).
haproxy_start() {
    command -v haproxy >/dev/null 2>&1 || die "haproxy not found (scripts/deps.sh --test installs it)"
    cfg="$CLUSTER_DIR/haproxy.cfg"
    {
        cat <<EOF
global
    # maxconn: derived from the open files limit (ulimit -n)
defaults
    mode http
    option redispatch
    retries 3
    timeout connect 1s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout http-request 10s
frontend carcassonne
    bind $HOST:$PORT
    default_backend servers
backend servers
    balance $BALANCE
    hash-type consistent
EOF
        i=1
        while [ $i -le "$1" ]; do
            echo "    server s$i 127.0.0.1:$((PORT + i)) send-proxy-v2 check inter 500ms fall 1 rise 1"
            i=$((i + 1))
        done
    } >"$cfg.new"
    same=0
    cmp -s "$cfg" "$cfg.new" 2>/dev/null && same=1
    mv "$cfg.new" "$cfg"
    # BALANCERS processes on the one port (HAProxy binds with SO_REUSEPORT:
    # the kernel spreads the connections), each with its own open files
    # limit; the ones above BALANCERS, from an earlier start, stop.
    for pidfile in "$CLUSTER_DIR"/haproxy-*.pid; do
        b=${pidfile##*/haproxy-}
        b=${b%.pid}
        [ -f "$pidfile" ] && [ "$b" -gt "$BALANCERS" ] && { alive "$pidfile" && kill "$(cat "$pidfile")"; rm -f "$pidfile"; }
    done
    b=1
    while [ $b -le "$BALANCERS" ]; do
        pidfile=$(balancer_pidfile $b)
        if alive "$pidfile" && [ $same -eq 1 ]; then
            :
        elif alive "$pidfile"; then
            haproxy -f "$cfg" -D -p "$pidfile" -sf "$(cat "$pidfile")" ||
                die "haproxy did not reload"
        else
            haproxy -f "$cfg" -D -p "$pidfile" >>"$CLUSTER_DIR/haproxy.log" 2>&1 ||
                die "haproxy did not start: see $CLUSTER_DIR/haproxy.log"
        fi
        b=$((b + 1))
    done
}

# The pid file of balancer $1: haproxy.pid for the first.
balancer_pidfile() {
    if [ "$1" -eq 1 ]; then echo "$CLUSTER_DIR/haproxy.pid"; else echo "$CLUSTER_DIR/haproxy-$1.pid"; fi
}

count() {
    if [ -n "$servers" ]; then
        echo "$servers"
    elif [ -f "$CLUSTER_DIR/servers" ]; then
        cat "$CLUSTER_DIR/servers"
    else
        echo 2
    fi
}

case "$command" in
start)
    [ -x "$CARC" ] || die "$CARC: not built (cmake --build build)"
    if [ -n "$last_port" ] && [ "$last_port" != "$PORT" ] && running; then
        die "the cluster in $CLUSTER_DIR runs on port $last_port: stop it first (cluster.sh stop)"
    fi
    mkdir -p "$CLUSTER_DIR"
    CLUSTER_DIR=$(cd "$CLUSTER_DIR" && pwd)
    echo "$PORT" >"$CLUSTER_DIR/port"
    n=$(count)
    # Fewer servers than before: the ones above N stop.
    if [ -f "$CLUSTER_DIR/servers" ]; then
        i=$((n + 1))
        while [ $i -le "$(cat "$CLUSTER_DIR/servers")" ]; do
            alive "$CLUSTER_DIR/server-$i.pid" && kill "$(cat "$CLUSTER_DIR/server-$i.pid")"
            rm -f "$CLUSTER_DIR/server-$i.pid"
            i=$((i + 1))
        done
    fi
    echo "$n" >"$CLUSTER_DIR/servers"
    pg_start
    [ "$RELAY" = redis ] && redis_start
    i=1
    while [ $i -le "$n" ]; do
        server_start $i
        i=$((i + 1))
    done
    haproxy_start "$n"
    echo "listening on http://$HOST:$PORT"
    ;;
status)
    [ -f "$CLUSTER_DIR/servers" ] || die "no cluster in $CLUSTER_DIR"
    i=1
    while [ $i -le "$(cat "$CLUSTER_DIR/servers")" ]; do
        pidfile="$CLUSTER_DIR/server-$i.pid"
        if alive "$pidfile"; then
            echo "server $i pid $(cat "$pidfile") port $((PORT + i)) running"
        else
            echo "server $i pid - port $((PORT + i)) missing"
        fi
        i=$((i + 1))
    done
    for pidfile in "$CLUSTER_DIR/haproxy.pid" "$CLUSTER_DIR"/haproxy-*.pid; do
        [ "$pidfile" = "$CLUSTER_DIR/haproxy-*.pid" ] && continue
        if alive "$pidfile"; then
            echo "haproxy pid $(cat "$pidfile") port $PORT running"
        else
            echo "haproxy pid - port $PORT missing"
        fi
    done
    if [ -f "$CLUSTER_DIR/pg/data/postmaster.pid" ]; then
        echo "postgresql pid $(head -1 "$CLUSTER_DIR/pg/data/postmaster.pid") socket $CLUSTER_DIR/pg"
    else
        echo "postgresql pid - socket $CLUSTER_DIR/pg missing"
    fi
    if alive "$CLUSTER_DIR/redis.pid"; then
        echo "redis pid $(cat "$CLUSTER_DIR/redis.pid") port $redisport running"
    fi
    ;;
stop)
    [ -d "$CLUSTER_DIR" ] || exit 0
    for pidfile in "$CLUSTER_DIR"/server-*.pid "$CLUSTER_DIR"/haproxy*.pid "$CLUSTER_DIR/redis.pid"; do
        alive "$pidfile" && kill "$(cat "$pidfile")"
        rm -f "$pidfile"
    done
    if [ -n "$pgbin" ] && [ -d "$CLUSTER_DIR/pg/data" ]; then
        as_db "$pgbin/pg_ctl" -D "$CLUSTER_DIR/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
*)
    die "usage: cluster.sh start|stop|status [--servers N]"
    ;;
esac
