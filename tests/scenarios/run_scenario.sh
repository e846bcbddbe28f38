#!/bin/sh
# run_scenario.sh: replay one game record through the command line and check
# the expectations written in its comment lines.
#
# usage: run_scenario.sh CARCASSONNE RECORD
#
# Expectation lines (comments, read by this script, ignored by the reader):
#   # expect-scores: 8 0           "scores" array, exactly, in player order
#   # expect-finished: false       "finished", exactly (true/false)
#   # expect-breakdown: 0/8/0/0 0/0/0/0
#                                  per player roads/cities/cloisters/farms
#   # expect-supply: 7 6           "supply" array (followers in hand)
#   # expect-winners: 1            "winners" array (empty: nothing after ':')
#   # expect-goods: 0/1/0 0/0/0    per player wine/grain/cloth tokens
#   # expect-goods-points: 0 10    "goods_points" array
#   # expect-figures: 6/1/1/0 7/1/1/1
#                                  per player followers/large/builder/pig in
#                                  the supply
#   # expect-turns: 1 2 1 1 2      who played each move line, in order (a
#                                  builder's second tile repeats a player)
#   # expect-exit: 1               exit status (default 0)
#   # expect-error: line 3: ...    substring of standard error (exit 1 only);
#                                  several expect-error lines: all must match
# A valid record (exit 0) must state expect-scores and expect-finished. An
# invalid one (exit 1) must state expect-error, and its standard output must
# be empty.
#
# Inputs that cannot sit in a text file are made at test time:
#   # input: crlf        the record is fed with CRLF line ends
#   # input: escapes     the record is fed through printf %b (\0000 NUL,
#                        \0377 a 0xFF byte, \r, \t ...)
#   # input: pad         every @PAD:N@ is replaced by N letters 'x'
#   # input: empty       an empty file is fed (the expectations stay here)
#
# Self-test records (selftest/*.rec) hold a deliberately wrong expectation
# and '# runner-says: TEXT' lines; 'run_scenario.sh --expect-failure CLI
# RECORD' succeeds only when the normal run fails and prints every TEXT.
#
# POSIX sh, sed, awk, tr, grep only: no python, no jq. The checks are one
# awk program (run_scenario.awk, beside this script): a record costs a
# handful of processes, not the 280 it took when each expectation was read
# by its own pipeline (on a VM where a process costs 5 ms, 0.8 s a record).

set -u

# Self-test mode: the record carries a deliberately wrong expectation; the
# normal run must fail (exit 1) and print every '# runner-says:' line.
if [ $# -eq 3 ] && [ "$1" = "--expect-failure" ]; then
    shift
    out=$(sh "$0" "$1" "$2" 2>&1)
    status=$?
    printf '%s\n' "$out"
    if [ "$status" -ne 1 ]; then
        echo "SELFTEST [$(basename "$2")]: the runner should have failed with status 1, got $status"
        exit 1
    fi
    said=$(tr -d '\r' <"$2" | sed -n 's/^#[[:space:]]*runner-says:[[:space:]]*//p')
    if [ -z "$said" ]; then
        echo "SELFTEST [$(basename "$2")]: no '# runner-says:' line in the record"
        exit 1
    fi
    printf '%s\n' "$said" | while IFS= read -r line; do
        if ! printf '%s\n' "$out" | grep -F -q -e "$line"; then
            echo "SELFTEST [$(basename "$2")]: the runner did not say: $line"
            exit 1
        fi
    done || exit 1
    echo "SELFTEST [$(basename "$2")]: ok, the wrong expectation was caught"
    exit 0
fi

if [ $# -ne 2 ]; then
    echo "usage: $0 CARCASSONNE RECORD" >&2
    echo "       $0 --expect-failure CARCASSONNE RECORD" >&2
    exit 2
fi
cli=$1
rec=$2
name=${rec##*/}
case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/carc-scenario.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# --- Build the input -------------------------------------------------------
# The first '# input:' line's word, trailing blanks and CRs dropped.
input=$(sed -n 's/\r//g; s/^#[[:space:]]*input:[[:space:]]*//; t found; d; :found
s/[[:space:]]*$//; p; q' "$rec")
feed=$tmp/input.rec
case $input in
"")
    feed=$rec
    ;;
crlf)
    awk '{ sub(/\r$/, ""); printf "%s\r\n", $0 }' "$rec" >"$feed"
    ;;
escapes)
    # $(...) drops the final newline; put it back.
    printf '%b\n' "$(cat "$rec")" >"$feed"
    ;;
pad)
    awk '{
        line = $0
        out = ""
        while (match(line, /@PAD:[0-9]+@/)) {
            n = substr(line, RSTART + 5, RLENGTH - 6) + 0
            pad = ""
            for (i = 0; i < n; i++) pad = pad "x"
            out = out substr(line, 1, RSTART - 1) pad
            line = substr(line, RSTART + RLENGTH)
        }
        print out line
    }' "$rec" >"$feed"
    ;;
empty)
    : >"$feed"
    ;;
*)
    echo "ERROR [$name] unknown input kind '$input'" >&2
    exit 2
    ;;
esac

# --- Run and check -------------------------------------------------------------
"$cli" replay --json "$feed" >"$tmp/out" 2>"$tmp/err"
status=$?
# Lines of standard error as wc counts them (a last line without its
# newline is not a line); only an invalid record's count is checked.
nerr=0
[ "$status" = 0 ] || nerr=$(wc -l <"$tmp/err")

SCENARIO_NAME=$name SCENARIO_STATUS=$status SCENARIO_NERR=$nerr \
    SCENARIO_COMMAND="$cli replay --json $feed" \
    awk -f "$here/run_scenario.awk" "$rec" "$tmp/out" "$tmp/err"
