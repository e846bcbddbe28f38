#!/bin/sh
# train.sh [SETTINGS] [learn.py options]: the learned player's whole
# training loop (docs/learning.md): self-play with the current best player,
# the samples' network inputs, training with PyTorch, export to .carcnet, a
# deck-paired match against the previous best, keep the better; as many
# generations as the settings say (default tools/learn/settings.json,
# work folder build/learn). Resumable: stop it at any time and run it again
# to go on where it was. Needs Debian's python3-torch (scripts/deps.sh
# --test) and builds the Python package into build/learn-venv the first
# time. Outside CI: about 5 minutes a generation on this 2-core machine.
# The best network ends in the work folder's state.json ("best"); copy it
# to data/nets/default.carcnet to make it the default (net=default).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
settings=${1:-$root/tools/learn/settings.json}
[ $# -gt 0 ] && shift
venv=$root/build/learn-venv
if ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    echo "train.sh: PyTorch is missing: apt-get install python3-torch libopenblas0-pthread" >&2
    exit 1
fi
# The package again when the library or the extension changed since.
if [ ! -x "$venv/bin/python" ] ||
    [ -n "$(find "$root/src" "$root/include" "$root/python/carcassonne" -newer "$venv/bin/python" \
        -name '*.[ch]' | head -n 1)" ]; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv --system-site-packages "$venv"
    "$venv/bin/python" -m pip install --no-build-isolation --no-index --no-deps -q "$root/python"
fi
cd "$root"
exec nice -n 10 "$venv/bin/python" tools/learn/learn.py loop "$settings" "$@"
