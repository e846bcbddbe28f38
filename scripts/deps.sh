#!/bin/sh
# deps.sh: installs the Debian 12 packages the project needs; installs
# nothing that is already there. Needs root (or sudo).
#
#   scripts/deps.sh          what building and playing need (scripts/play.sh)
#   scripts/deps.sh --test   that and what the tests need: cmocka, the
#                            linters, clang for the fuzzers, tmux, python3,
#                            chromium and Node.js for the browser tests,
#                            PostgreSQL, HAProxy and Redis for the
#                            cluster's (scripts/test.sh, .ci/run)
set -eu

PLAY_PACKAGES="build-essential cmake pkg-config libjansson-dev libncurses-dev \
libwebsockets-dev libwebsockets-evlib-ev libev-dev libsqlite3-dev libpq-dev libhiredis-dev libssl-dev libsodium-dev libcurl4-openssl-dev zlib1g-dev esbuild"
TEST_PACKAGES="libcmocka-dev clang-format clang-tidy cppcheck shellcheck clang libclang-rt-14-dev tmux \
python3 python3-websocket chromium openssl postgresql haproxy redis-server"

case "${1:-}" in
"") packages=$PLAY_PACKAGES ;;
--test) packages="$PLAY_PACKAGES $TEST_PACKAGES" ;;
*)
    echo "deps.sh: unknown argument '$1' (none: to play; --test: to run the tests too)" >&2
    exit 2
    ;;
esac

# What the Python package builds and is tested with (docs/python.md,
# tests/python): Debian's, so that it builds offline.
if [ "${1:-}" = "--test" ]; then
    packages="$packages python3-dev python3-venv python3-setuptools python3-wheel \
python3-numpy python3-pytest python3-torch libopenblas0-pthread"
fi

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
# The browser tests' driver (tests/web) runs on Node.js with npm; a Node.js
# from elsewhere that brings its own npm is kept.
if [ "${1:-}" = "--test" ]; then
    command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
fi
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "deps.sh: run as root to install:$missing" >&2; exit 1; }
    SUDO=sudo
fi
echo "deps.sh: installing$missing"
$SUDO apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
