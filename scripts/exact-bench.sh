#!/bin/sh
# exact-bench.sh [-t "1 2 3 4"] [-m MS] [-g GAMES] [-s SEED] [-j THREADS] [-p PLAYERS] BIN [OLD_BIN]:
# the exact endgame solver's reach (docs/arena.md, "The exact endgame").
# Plays GAMES (default 4) greedy-against-greedy base games with seed SEED
# (default 11) and records them (with -p PLAYERS of 3 to 8: random
# players' games of `selfplay --players PLAYERS`, dealt from seeds SEED,
# SEED + 1, ...; arena plays two players only), truncates each record to T tiles left
# for every T of -t (default "1 2 3 4"), the drawn tile the one the game
# played next, and times `BIN analyse --exact --json` on each (budget -m
# MS, default 10000) on THREADS threads (default 1; `analyse --exact`'s
# own default is 2; OLD_BIN runs on the same threads when it has the
# option, else without it, on one thread, as builds before --exact-threads
# did). One line a position: the record, tiles left, and
# per binary the seconds, the positions searched and whether it ended
# (when not, how far it went before the budget ran out).
# With OLD_BIN, each position is solved by both, one after the other, and
# the line ends with "same" when both ended with the same margin for every
# move (compared as sorted move/margin pairs), "DIFF" when not, "-" when
# either ran out. Runs one solve at a time (nice); the machine's load
# moves the seconds, not the positions searched.
set -eu
tiles="1 2 3 4"
ms=10000
games=4
seed=11
threads=1
players=2
while getopts t:m:g:s:j:p: opt; do
    case $opt in
    t) tiles=$OPTARG ;;
    m) ms=$OPTARG ;;
    g) games=$OPTARG ;;
    s) seed=$OPTARG ;;
    j) threads=$OPTARG ;;
    p) players=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-t TILES] [-m MS] [-g GAMES] [-s SEED] [-j THREADS] [-p PLAYERS] BIN [OLD_BIN]" >&2; exit 2; }
new=$1
old=${2:-}
old_threads=
if [ -n "$old" ] && "$old" analyse --help 2>&1 | grep -q -e --exact-threads; then
    old_threads="--exact-threads $threads"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ "$players" = 2 ]; then
    "$new" arena greedy greedy --games "$games" --seed "$seed" --record "$dir/rec" >/dev/null
else
    mkdir "$dir/rec"
    "$new" selfplay --players "$players" --games "$games" --seed "$seed" --record "$dir/rec/game.rec" >/dev/null
fi
# solve BIN FILE TILE OUT [OPTION...]: "seconds nodes exact", the sorted moves into OUT
solve() {
    bin=$1 file=$2 tile=$3 out=$4
    shift 4
    nice -n 10 "$bin" analyse --exact --exact-ms "$ms" "$@" --tile "$tile" --json "$file" 2>/dev/null |
        python3 -c '
import json, re, sys
r = json.load(sys.stdin)
with open(sys.argv[1], "w") as f:
    for m in sorted((m["move"], m["margin"]) for m in r["moves"]):
        f.write("%s %.12f\n" % m)
if r["exact"]:
    print("%.3f %d yes" % (r["seconds"], r["nodes"]))
else:  # the solve that ran out says how far it went in its reason
    out = re.search(r"\(([0-9.]+) s, ([0-9]+) positions\)", r.get("reason", ""))
    print("%s %s no" % (out.group(1), out.group(2)) if out else "- - no")
' "$out"
}
printf '%-14s %5s  %-24s' record left "new: s nodes exact"
[ -n "$old" ] && printf '  %-24s  %s' "old: s nodes exact" values
echo
for t in $tiles; do
    for rec in "$dir"/rec/*.rec; do
        name=$(basename "$rec" .rec)
        lines=$(wc -l <"$rec")
        keep=$((lines - t - 1))
        pos="$dir/$name-$t.rec"
        head -n "$keep" "$rec" >"$pos"
        tile=$(sed -n "$((keep + 1))p" "$rec" | cut -d' ' -f1)
        a=$(solve "$new" "$pos" "$tile" "$pos.new" --exact-threads "$threads")
        printf '%-14s %5s  %-24s' "$name" "$t" "$a"
        if [ -n "$old" ]; then
            # shellcheck disable=SC2086 # the option and its value, or nothing
            b=$(solve "$old" "$pos" "$tile" "$pos.old" $old_threads)
            same=-
            case "$a $b" in
            *no*) ;;
            *) if cmp -s "$pos.new" "$pos.old"; then same=same; else same=DIFF; fi ;;
            esac
            printf '  %-24s  %s' "$b" "$same"
        fi
        echo
    done
done
