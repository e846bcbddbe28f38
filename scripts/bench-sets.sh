#!/bin/sh
# bench-sets.sh [ROUNDS]: the speed of every expansion set in one run, for
# the README and docs/performance.md. First `carcassonne bench` (200,000
# random games of each set: the base game, The River, Inns & Cathedrals,
# Traders & Builders and all three side by side, games and tiles placed a
# second), then the default player's search (`bench --mcts`, 1 s a move, 2
# threads, 8 midgame positions) in the base game and with all three,
# alternated ROUNDS times (default 3) so that a busy moment touches both,
# and the ratio of their iterations a second; last the tiles placed a
# second with all three against the base game's, paired: 2*ROUNDS+1 rounds
# of a base bench and an all-three bench of as many plies, one after the
# other, and the median of the rounds' ratios (on a VM whose speed drifts
# within a minute, the one-run columns above can move by 10%). About 2
# minutes; run it on a quiet machine.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
bin=$root/build/carcassonne
all3=river,inns-cathedrals,traders-builders
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" --target carcassonne_cli -j"$(nproc)" >/dev/null
"$bin" bench
# field NAME: a number of the JSON object on standard input, rounded.
field() {
    python3 -c 'import json, sys; print("%.0f" % json.load(sys.stdin)[sys.argv[1]])' "$1"
}
rate() {
    "$bin" bench --mcts mcts:ms=1000,threads=2 --expansions "$1" --json | field iterations_per_second
}
base_sum=0
all_sum=0
i=1
while [ "$i" -le "$rounds" ]; do
    b=$(rate '')
    a=$(rate "$all3")
    echo "round $i: MCTS iterations a second, base game $b, all three $a"
    base_sum=$((base_sum + b))
    all_sum=$((all_sum + a))
    i=$((i + 1))
done
echo "MCTS iterations a second over $rounds rounds: base game $((base_sum / rounds)),\
 all three $((all_sum / rounds)): $((100 * all_sum / base_sum))% of the base game's"
tiles() {
    "$bin" bench --games "$1" --expansions "$2" --json | field tiles_per_second
}
ratios=""
i=1
while [ "$i" -le $((2 * rounds + 1)) ]; do
    b=$(tiles 20000 '')       # 20,000 x 71 plies
    a=$(tiles 11452 "$all3")  # 11,452 x 124: as many
    r=$(python3 -c "print('%.3f' % ($a / $b))")
    echo "paired round $i: tiles placed a second, base game $b, all three $a: $r"
    ratios="$ratios $r"
    i=$((i + 1))
done
# shellcheck disable=SC2086 # $ratios: one argument a ratio
echo "tiles placed a second with all three, median of $((2 * rounds + 1)) paired rounds:\
 $(python3 -c "import statistics, sys; print('%.0f%%' % (100 * statistics.median(map(float, sys.argv[1:]))))" $ratios) of the base game's"
