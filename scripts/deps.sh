#!/bin/sh
# deps.sh: installs the Debian 12 packages the project builds, runs and
# tests with; installs nothing that is already there. Needs root (or sudo).
set -eu

PACKAGES="build-essential cmake pkg-config libjansson-dev libcmocka-dev \
clang-format clang-tidy cppcheck \
clang libclang-rt-14-dev tmux python3 libncurses-dev \
libwebsockets-dev libwebsockets-evlib-ev libev-dev libsqlite3-dev libssl-dev python3-websocket \
chromium openssl"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
# The browser tests' driver (tests/web) runs on Node.js with npm; a Node.js
# from elsewhere that brings its own npm is kept.
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
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
