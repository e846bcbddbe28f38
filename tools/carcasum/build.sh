#!/bin/sh
# build.sh CARCASUM_SRC OUTDIR: builds OUTDIR/carcasum-engine, the adapter that
# seats Carcasum's MCTS player in `carcassonne arena`, from a Carcasum source
# tree (the Carcasum/ folder of github.com/TripleWhy/Carcasum: core/, jcz/,
# player/, static.h) and this project's tile table (src/tile_data.c), which
# make_tiles.py turns into the basic.xml that Carcasum's tile factory reads.
# Needs g++, python3 and Qt 5 Core (Debian: apt-get install qtbase5-dev).
# JOBS (default 2) compiles that many files at once.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 CARCASUM_SRC OUTDIR" >&2
    exit 2
fi
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JOBS=${JOBS:-2}

# Carcasum's files compiled here, and the headers that must be there too.
UNITS="core/game.cpp core/board.cpp core/tile.cpp core/util.cpp core/random.cpp
       core/nexttileprovider.cpp jcz/tilefactory.cpp player/randomplayer.cpp
       player/simpleplayer3.cpp player/utilities.cpp"
for f in static.h player/mctsplayer.tpp $UNITS; do
    [ -f "$SRC/$f" ] || { echo "build.sh: $SRC/$f is missing" >&2; exit 1; }
done

RCC=$(command -v rcc || true)
[ -n "$RCC" ] || RCC=$(pkg-config --variable=host_bins Qt5Core)/rcc
CXXFLAGS=${CXXFLAGS:-"-O3 -march=native -mtune=native -funroll-loops"}   # as Carcasum.pro builds a release
QT_CFLAGS=$(pkg-config --cflags Qt5Core)
QT_LIBS=$(pkg-config --libs Qt5Core)

# The tiles: basic.xml from our table, compiled in as the resource
# :/jcz/tile-definitions/basic.xml that jcz/tilefactory.cpp opens.
mkdir -p "$OUT/tile-definitions" "$OUT/obj"
python3 "$HERE/make_tiles.py" "$ROOT/src/tile_data.c" "$OUT/tile-definitions/basic.xml"
cat > "$OUT/jcz.qrc" <<QRC
<RCC><qresource prefix="/jcz"><file>tile-definitions/basic.xml</file></qresource></RCC>
QRC
(cd "$OUT" && "$RCC" -name jcz -o "$OUT/obj/qrc_jcz.cpp" jcz.qrc)

objs=""
list=""
for f in $UNITS; do
    o="$OUT/obj/$(echo "$f" | tr / _).o"
    list="$list $SRC/$f:$o"
    objs="$objs $o"
done
list="$list $HERE/engine.cpp:$OUT/obj/engine.o $OUT/obj/qrc_jcz.cpp:$OUT/obj/qrc_jcz.o"
objs="$objs $OUT/obj/engine.o $OUT/obj/qrc_jcz.o"

export SRC ROOT CXXFLAGS QT_CFLAGS
# shellcheck disable=SC2086,SC2016 # a word a file pair; the inner script expands its own
echo $list | tr ' ' '\n' | xargs -P "$JOBS" -I{} sh -c '
    s=${1%%:*}; o=${1#*:}
    g++ -std=c++17 -fPIC $CXXFLAGS -DQT_NO_DEBUG -DQT_NO_DEBUG_OUTPUT \
        -DCARCASUM_REFEREE_DEFAULT="\"$ROOT/build/carcassonne\"" \
        -I"$SRC" $QT_CFLAGS -c "$s" -o "$o"' _ {}
# shellcheck disable=SC2086 # lists of words
g++ -o "$OUT/carcasum-engine" $objs $QT_LIBS
echo "built $OUT/carcasum-engine"
