#!/bin/sh
# with_postgres.sh: runs a command beside a PostgreSQL of its own, then
# stops it. The server is made for the command: initdb in a temporary
# folder (run as the user `nobody` when run as root, for PostgreSQL
# refuses root), a database `carc`, listening on a Unix socket in that
# folder only (no TCP port, so that no two runs clash). The command gets
# the database's connection URI in CARC_TEST_PG, and the pg_ctl command to
# stop and start it again in CARC_TEST_PG_CTL. Without PostgreSQL it fails;
# it never skips.
#
#   tests/server/with_postgres.sh COMMAND [ARGS...]
set -eu

bin=""
for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && bin=$d
done
if [ -z "$bin" ]; then
    echo "with_postgres.sh: PostgreSQL not found (scripts/deps.sh --test installs it)" >&2
    exit 1
fi

dir=$(mktemp -d /tmp/carc-pg-XXXXXX)
chmod 755 "$dir"
as_db() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
    chown nobody "$dir"
    as_db() { runuser -u nobody -- "$@"; }
fi
port=$((20000 + $$ % 20000))

# shellcheck disable=SC2317  # run by the trap
stop() {
    as_db "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 1' INT TERM

as_db "$bin/initdb" -D "$dir/data" -U carc --auth=trust --locale=C -E UTF8 --no-sync \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
# fsync stays on: the tests count what survives a crash. pg.sh start|stop
# (immediate: as a crash would) is for the tests that restart it.
run_as=""
[ "$(id -u)" -eq 0 ] && run_as="runuser -u nobody --"
cat >"$dir/pg.sh" <<CTL
#!/bin/sh
exec $run_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -m immediate \\
    -o "-c listen_addresses= -c unix_socket_directories=$dir -c port=$port" "\$1"
CTL
chmod 755 "$dir/pg.sh"
"$dir/pg.sh" start >/dev/null || { cat "$dir/postgres.log" >&2; exit 1; }
as_db "$bin/createdb" -h "$dir" -p "$port" -U carc carc

CARC_TEST_PG="postgresql://carc@/carc?host=$dir&port=$port"
CARC_TEST_PG_CTL="$dir/pg.sh"
export CARC_TEST_PG CARC_TEST_PG_CTL
status=0
"$@" || status=$?
exit $status
