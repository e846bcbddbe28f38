#!/bin/sh
# run.sh MODE BINDIR CLI SANITIZE: the Python package's tests
# (tests/python/CMakeLists.txt), in a fresh virtual environment made with
# --system-site-packages in BINDIR, offline, as docs/python.md tells users:
#   install   copies python/ into BINDIR and pip-installs it (warnings are
#             errors; SANITIZE=1: built with ASan and UBSan)
#   nowheel   pip-installs that copy into a plain virtual environment,
#             which has pip and setuptools but not `wheel` (nor numpy),
#             and loads the extension: the build needs no `wheel`
#   pytest    runs tests/python under that environment
#   examples  runs every examples/python/*.py
#   memory    the reference-count and memory test over 100,000 games
#             through the Python API (ctest -L long; about 60 s of CPU)
# CLI is the carcassonne program (records are checked with `replay`).
set -eu
mode=$1 bindir=$2 cli=$3 sanitize=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
venv=$bindir/venv

# Debian's python3 has the packages scripts/deps.sh installs; another
# python3 first on the PATH (pyenv) may not.
python=""
for candidate in ${CARC_PYTHON:-} /usr/bin/python3 python3; do
    if "$candidate" -c 'import numpy, pytest, setuptools, venv' 2>/dev/null; then
        python=$candidate
        break
    fi
done
[ -n "$python" ] || { echo "run.sh: no python3 with numpy, pytest, setuptools (scripts/deps.sh --test)" >&2; exit 1; }

if [ "$sanitize" = 1 ]; then
    # The extension is built with ASan: its runtime must come first.
    LD_PRELOAD=$(gcc -print-file-name=libasan.so)
    export LD_PRELOAD
    # Python keeps objects alive until exit: leak reports would be noise.
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
    export ASAN_OPTIONS
    CARC_TEST_SCALE=${CARC_TEST_SCALE:-0.1}
    export CARC_TEST_SCALE
fi
CARCASSONNE=$cli
export CARCASSONNE

case $mode in
install)
    rm -rf "$venv" "$bindir/pkg"
    mkdir -p "$bindir/pkg"
    cp -R "$src/python/setup.py" "$src/python/pyproject.toml" "$src/python/build_backend.py" \
        "$src/python/carcassonne" "$bindir/pkg/"
    rm -rf "$bindir/pkg/carcassonne/__pycache__"
    env -u LD_PRELOAD "$python" -m venv --system-site-packages "$venv"
    env -u LD_PRELOAD CARC_ROOT="$src" CARC_WERROR=1 CARC_SANITIZE="$sanitize" \
        "$venv/bin/python" -m pip install --no-build-isolation --no-index --no-deps -q "$bindir/pkg"
    ;;
nowheel)
    plain=$bindir/venv-plain
    rm -rf "$plain"
    env -u LD_PRELOAD "$python" -m venv "$plain"
    env -u LD_PRELOAD "$plain/bin/python" -m pip uninstall -y -q wheel 2>/dev/null || true
    if "$plain/bin/python" -c 'import wheel' 2>/dev/null; then
        echo "run.sh: cannot make a virtual environment without wheel" >&2
        exit 1
    fi
    env -u LD_PRELOAD CARC_ROOT="$src" CARC_WERROR=1 CARC_SANITIZE="$sanitize" \
        "$plain/bin/python" -m pip install --no-build-isolation --no-index --no-deps -q "$bindir/pkg"
    # No numpy here: load the extension alone and play a move.
    "$plain/bin/python" - <<'EOF'
import glob, importlib.util, os, sysconfig
so = glob.glob(os.path.join(sysconfig.get_paths()["platlib"], "carcassonne", "_core*.so"))[0]
spec = importlib.util.spec_from_file_location("carcassonne._core", so)
core = importlib.util.module_from_spec(spec)
spec.loader.exec_module(core)
g = core.Game(2, 7, "", "")
g.play(g.legal_moves()[0])
assert g.record().startswith("players 2\nseed 7\n"), g.record()
print("built without wheel and loaded:", so)
EOF
    ;;
pytest)
    cd "$bindir"
    exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python"
    ;;
memory)
    cd "$bindir"
    CARC_MEMORY_GAMES=100000 exec "$venv/bin/python" -m pytest -q -p no:cacheprovider \
        "$src/tests/python/test_robust.py" -k reference_counts
    ;;
examples)
    cd "$bindir"
    for example in "$src"/examples/python/*.py; do
        echo "== $example"
        "$venv/bin/python" "$example" --quick
    done
    ;;
*)
    echo "run.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
