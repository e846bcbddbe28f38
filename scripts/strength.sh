#!/bin/sh
# strength.sh [DIR] [MATCH...]: the arena matches behind the strength
# targets of the README, at 440,000 iterations a move (about 1 s on this
# project's 2-core machine), outside CI: hours each. Every game is recorded
# under DIR (default strength/, not committed) and every match runs with
# --resume, so the script can be stopped at any time and run again to go
# on where it was. Each match's statistics go to DIR/NAME.json; at the end
# a line per match is printed. MATCH names some of them (default all):
#   greedy       200 games against greedy, seed 7
#   star25-S     50 games against star25, S = 11, 12, 13, 14
#   vanilla      200 games against vanilla-mcts, seed 31
#   self-S       self-play: 20 games on seed 21, 10 on 22, 20 on 23
#   sets-all3    40 games against greedy with all three expansions, seed 11,
#                the default player at 1 s a move (mcts:ms=1000)
#   sets-SET     20 games the same way for SET = base, river, inns
#                (Inns & Cathedrals), traders (Traders & Builders)
# The expansion matches are not in the default list (add them by name);
# being timed, they depend on the machine (docs/strength.md).
# PLAYER=SPEC plays another first player in the base-game matches (default
# mcts:iters=440000); ARENA_THREADS=N plays N games at once (default 2).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/strength}
[ $# -gt 0 ] && shift
player=${PLAYER:-mcts:iters=440000}
threads=${ARENA_THREADS:-2}
all="greedy star25-11 star25-12 star25-13 star25-14 vanilla self-21 self-22 self-23"
matches=${*:-$all}

all3=river,inns-cathedrals,traders-builders

# The first player of a match.
player_of() {
    case $1 in
    sets-*) echo "mcts:ms=1000" ;;
    *) echo "$player" ;;
    esac
}

args_of() {
    case $1 in
    greedy) echo "greedy --games 200 --seed 7" ;;
    star25-1[1-4]) echo "star25 --games 50 --seed ${1#star25-}" ;;
    vanilla) echo "vanilla-mcts --games 200 --seed 31" ;;
    self-21 | self-23) echo "$player --games 20 --seed ${1#self-}" ;;
    self-22) echo "$player --games 10 --seed 22" ;;
    sets-base) echo "greedy --games 20 --seed 11" ;;
    sets-river) echo "greedy --games 20 --seed 11 --expansions river" ;;
    sets-inns) echo "greedy --games 20 --seed 11 --expansions inns-cathedrals" ;;
    sets-traders) echo "greedy --games 20 --seed 11 --expansions traders-builders" ;;
    sets-all3) echo "greedy --games 40 --seed 11 --expansions $all3" ;;
    *) return 1 ;;
    esac
}

for m in $matches; do
    if ! args_of "$m" >/dev/null; then
        echo "strength.sh: unknown match '$m' ($all sets-base sets-river sets-inns sets-traders sets-all3)" >&2
        exit 2
    fi
done

"$root/scripts/deps.sh" --test
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" --target carcassonne_cli -j"$(nproc)" >/dev/null
mkdir -p "$dir"
for m in $matches; do
    echo "strength.sh: $m: arena $(player_of "$m") $(args_of "$m")"
    # shellcheck disable=SC2046 # the arguments are words on purpose
    "$root/build/carcassonne" arena "$(player_of "$m")" $(args_of "$m") --threads "$threads" \
        --record "$dir/$m" --resume --verbose --json >"$dir/$m.json.part" 2>>"$dir/$m.log"
    mv "$dir/$m.json.part" "$dir/$m.json"
done
for m in $matches; do
    python3 -c '
import json, sys
s = json.load(open(sys.argv[2]))
lo, hi = s["a_win_rate_ci"]
print("%-11s %3d games %3d-%d-%-3d score rate %.3f (%.2f .. %.2f) margin %+.1f (se %.1f)"
      " scores %.1f / %.1f" % (sys.argv[1], s["games"], s["a_wins"], s["draws"], s["b_wins"],
      s["a_win_rate"], lo, hi, s["mean_margin"], s["margin_se"], s["a_mean_score"],
      s["b_mean_score"]))' "$m" "$dir/$m.json"
done
