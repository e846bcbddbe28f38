#!/bin/sh
# lint.sh: clang-format (no changes needed), clang-tidy and cppcheck over
# the C sources, a check that the turn code names no rule, shellcheck over
# the shell scripts, ESLint over the
# browser client and its tests. Needs a configured build/
# (compile_commands.json), and Node.js with npm for ESLint (pinned in
# tools/eslint/package-lock.json, installed there by npm ci).
set -eu
cd "$(dirname "$0")/.."
sources=$(git ls-files '*.c' '*.h')
echo "== clang-format"
# shellcheck disable=SC2086
clang-format --dry-run -Werror $sources
echo "== the turn code names no rule"
# game.c, moves.c and scoring.c, the board and the record reader reach
# expansions and house rules through their capabilities
# (src/capabilities.h), the tile source (src/source.h) and the rules'
# notation (src/rules.h): no word of a rule's, no rule flag, no expansion
# bit. (CARC_RIVER, a segment kind of the tile catalogue, is one word.)
turn_code="src/game.c src/moves.c src/scoring.c src/board.c src/record.c"
# shellcheck disable=SC2086
if grep -n -i -w -E 'rivers?|traders|inns?|cathedrals?|hands?|builders?|pigs?|goods|reshuffle|table_[wh]|bounds_[a-z_]+' $turn_code ||
    grep -n -E 'CARC_RULE_|CARC_EXPANSION_|rules\.hand' $turn_code; then
    echo "lint: the turn code names a rule (above): call it through a capability's hook" >&2
    exit 1
fi
# The tile source (the pile, the hand, the interface over them) reaches
# the expansions' tiles and piles through the capabilities' hooks too
# (pile parts, the start tile, a record's draw refused): no expansion's
# word.
tile_source="src/pile.c src/pile.h src/hand.c src/hand.h src/source.c src/source.h"
# shellcheck disable=SC2086
if grep -n -i -w -E 'rivers?|lakes?|traders|inns?|cathedrals?|builders?|pigs?|goods|CARC_EXPANSION_[A-Z_]+|CARC_KIND_R[A-Z]' $tile_source; then
    echo "lint: the tile source names an expansion (above): call it through a capability's hook" >&2
    exit 1
fi
# The rest of the engine: a rule's flag or value is read only by the files
# of that rule (its capability), the rules' names and notation (rules.c),
# the tile source's implementations (pile, hand, source), the figures of
# the expansions, the tile catalogue's data and the list of capabilities.
# The players (src/ai) are the library's clients and ask as they need.
owners='^src/(ai/|rules\.|river\.|traders\.|inns\.|hand\.|bounds\.|house_rules\.|source\.|pile\.|tile_data\.|capabilities\.h)'
# shellcheck disable=SC2046
if grep -n -E 'CARC_RULE_|CARC_EXPANSION_|rules(\.|->)hand|table_[wh]' $(git ls-files 'src/*.c' 'src/*.h' | grep -v -E "$owners"); then
    echo "lint: a rule's flag read outside its own files (above): give its capability a hook" >&2
    exit 1
fi
# A capability's part of carc_game (state.h) is touched only by its own
# files: The River's by river.*, Traders & Builders' by traders.*, Inns &
# Cathedrals' large followers by inns.h, the hands' by the tile source
# (hand.*, source.*, pile.c).
state_owner() {
    case $1 in
    river) echo '^src/river\.' ;;
    traders) echo '^src/traders\.' ;;
    large) echo '^src/inns\.h' ;;
    hand) echo '^src/(hand\.|source\.|pile\.c)' ;;
    esac
}
for part in river traders large hand; do
    # shellcheck disable=SC2046
    if grep -n -E "(->|\.)$part(\.|\[)" $(git ls-files 'src/*.c' 'src/*.h' | grep -v -E "$(state_owner $part)"); then
        echo "lint: the game state's '$part' touched outside its capability's files (above)" >&2
        exit 1
    fi
done
echo "== shellcheck"
# shellcheck disable=SC2046 # one argument a script
shellcheck $(git ls-files '*.sh' .ci/run)
echo "== cppcheck and clang-tidy"
# cppcheck (one process over the whole tree, so that its checks across
# files see every file) beside clang-tidy, whose batches would otherwise
# wait for it; either's finding fails the run.
# ctunullpointer: a carc_game handle is never NULL by contract (carcassonne.h).
cppcheck --enable=warning,performance,portability --std=c11 --error-exitcode=1 \
    --inline-suppr --suppress=ctunullpointer -q -Iinclude -Isrc -Iapps/common src apps tools tests &
cppcheck_pid=$!
# clang-tidy checks a file once for each of its compile commands, and the
# engine's files are built in both layouts (LAYOUT_WIDE=0 and 1; the
# catalogue and a test's copy of move_list.c once more), which doubled the
# static analyzer's time on the heaviest files. So every file gets every
# check on its first command (build/tidy/first), and the wide layout's
# commands (build/tidy/wide) every check but the analyzer: half the
# analyzer's time on those files, the other checks on both layouts.
python3 - build/compile_commands.json build/tidy <<'EOF'
import json, os, sys
first, wide = {}, {}
for entry in json.load(open(sys.argv[1])):
    line = entry.get("command") or " ".join(entry.get("arguments", []))
    if entry["file"] not in first:
        first[entry["file"]] = entry
    elif "LAYOUT_WIDE=1" in line:
        wide.setdefault(entry["file"], entry)
for name, entries in (("first", first), ("wide", wide)):
    os.makedirs(os.path.join(sys.argv[2], name), exist_ok=True)
    with open(os.path.join(sys.argv[2], name, "compile_commands.json"), "w") as out:
        json.dump(list(entries.values()), out)
with open(os.path.join(sys.argv[2], "wide", "files"), "w") as out:
    out.write("".join(f + "\n" for f in sorted(wide)))
EOF
# One clang-tidy per core, eight files each; the wide layout's few files
# after them.
tidy=0
git ls-files 'src/*.c' 'apps/*.c' 'tools/*.c' |
    xargs -P "$(nproc)" -n 8 clang-tidy -p build/tidy/first --quiet 2>/dev/null || tidy=$?
xargs -r -P "$(nproc)" -n 4 clang-tidy -p build/tidy/wide --quiet --checks='-clang-analyzer-*' \
    <build/tidy/wide/files 2>/dev/null || tidy=$?
cppcheck=0
wait "$cppcheck_pid" || cppcheck=$?
if [ "$cppcheck" -ne 0 ] || [ "$tidy" -ne 0 ]; then
    echo "lint: cppcheck (exit $cppcheck) or clang-tidy (exit $tidy) found something (above)" >&2
    exit 1
fi
echo "== eslint"
eslint_dir=tools/eslint
if ! cmp -s "$eslint_dir/package-lock.json" "$eslint_dir/node_modules/.installed-lock.json"; then
    (cd "$eslint_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    cp "$eslint_dir/package-lock.json" "$eslint_dir/node_modules/.installed-lock.json"
fi
"$eslint_dir/node_modules/.bin/eslint" --config "$eslint_dir/eslint.config.mjs" web/js tests/web
echo "lint: clean"
