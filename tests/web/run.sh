#!/bin/sh
# run.sh OUT_DIR CARCASSONNE: the browser tests. Installs the pinned
# playwright-core (npm ci, no install scripts: nothing downloads a browser)
# into OUT_DIR/node when the lock file changed, then runs web.test.mjs
# against Debian's chromium (or WEB_SCRIPT, e.g. bench.mjs); screenshots
# go to OUT_DIR/artefacts. A third argument runs only the tests whose name
# holds it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
bin=$2
command -v node >/dev/null 2>&1 || { echo "run.sh: node is missing (scripts/deps.sh --test)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "run.sh: chromium is missing (scripts/deps.sh --test)" >&2; exit 1; }
mkdir -p "$out/node"
if ! cmp -s "$here/package-lock.json" "$out/node/package-lock.json" ||
    [ ! -d "$out/node/node_modules/playwright-core" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$out/node/"
    (cd "$out/node" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
# The client as the server serves it: the build folder's bundle (the
# top CMakeLists.txt) when there is one, else web/'s modules.
web="$here/../../web"
[ -f "$(dirname "$bin")/web/js/app.js" ] && web="$(dirname "$bin")/web"
CARCASSONNE=$bin WEB_DIR="${WEB_DIR:-$web}" ARTEFACTS="$out/artefacts" \
    WEB_NODE_MODULES="$out/node/node_modules" exec node "$here/${WEB_SCRIPT:-web.test.mjs}" ${3:+"$3"}
