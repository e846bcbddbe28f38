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
# POSIX sh, sed, awk, tr, grep only: no python, no jq.

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
name=$(basename "$rec")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/carc-scenario.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# The value of one expectation key ("" and status 1 when absent).
expect() {
    tr -d '\r' <"$rec" |
        sed -n "s/^#[[:space:]]*expect-$1:[[:space:]]*//p" |
        sed 's/[[:space:]]*$//' | head -n 1
}
has_expect() {
    tr -d '\r' <"$rec" | grep -q "^#[[:space:]]*expect-$1:"
}

failures=0
fail() {
    failures=$((failures + 1))
    printf '%s\n' "FAIL [$name] $*"
}

# --- Build the input -------------------------------------------------------
input=$(tr -d '\r' <"$rec" | sed -n 's/^#[[:space:]]*input:[[:space:]]*//p' |
    sed 's/[[:space:]]*$//' | head -n 1)
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

# --- Run ---------------------------------------------------------------------
"$cli" replay --json "$feed" >"$tmp/out" 2>"$tmp/err"
status=$?

want_exit=$(expect exit)
[ -n "$want_exit" ] || want_exit=0

show_output() {
    echo "---- command: $cli replay --json $feed"
    echo "---- exit status: $status"
    echo "---- stdout:"
    cat "$tmp/out"
    echo "---- stderr:"
    cat "$tmp/err"
}

if [ "$status" != "$want_exit" ]; then
    fail "exit status: expected $want_exit, got $status"
    show_output
    exit 1
fi

if [ "$want_exit" != 0 ]; then
    if ! has_expect error; then
        fail "an invalid record needs '# expect-error:'"
    fi
    if [ -s "$tmp/out" ]; then
        fail "standard output should be empty for an invalid record"
    fi
    # Every expect-error line is a fixed string that standard error must
    # contain.
    tr -d '\r' <"$rec" |
        sed -n 's/^#[[:space:]]*expect-error:[[:space:]]*//p' |
        sed 's/[[:space:]]*$//' >"$tmp/want_err"
    while IFS= read -r want_err; do
        if ! grep -F -q -e "$want_err" "$tmp/err"; then
            fail "standard error: expected to contain '$want_err'"
        fi
    done <"$tmp/want_err"
    nerr=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$nerr" != 1 ]; then
        fail "standard error: expected one message line, got $nerr lines"
    fi
    if [ "$failures" -ne 0 ]; then
        show_output
        exit 1
    fi
    echo "ok [$name] exit $status: $(cat "$tmp/err")"
    exit 0
fi

# --- Valid record: read the JSON -----------------------------------------------
for key in scores finished; do
    if ! has_expect "$key"; then
        fail "a valid record needs '# expect-$key:'"
    fi
done

# One line, no blanks (the JSON holds no strings with blanks that matter).
json=$(tr -d ' \t\r\n' <"$tmp/out")

# JSON array "key":[a,b,...] -> "a b ..."
json_array() {
    printf '%s\n' "$json" | sed -n "s/.*\"$1\":\[\([^]]*\)\].*/\1/p" | tr ',' ' '
}
# JSON scalar "key":value -> value
json_scalar() {
    printf '%s\n' "$json" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"
}
# "KEY":[{...},{...}] and fields F1 F2 ... -> "F1/F2/... F1/F2/... ..."
# (one group per object; the objects hold no nested arrays)
json_objects() {
    key=$1
    shift
    printf '%s\n' "$json" | sed -n "s/.*\"$key\":\[\([^]]*\)\].*/\1/p" |
        tr '}' '\n' | while IFS= read -r obj; do
            case $obj in *'{'*) ;; *) continue ;; esac
            v=""
            for k in "$@"; do
                n=$(printf '%s\n' "$obj" | sed -n "s/.*\"$k\":\(-\{0,1\}[0-9]*\).*/\1/p")
                v="$v${v:+/}${n:-?}"
            done
            printf '%s ' "$v"
        done
}
json_breakdown() {
    json_objects breakdown roads cities cloisters farms
}
# Collapse runs of blanks, trim.
norm() {
    printf '%s\n' "$*" | tr -s ' \t' '  ' | sed 's/^ //; s/ $//'
}

check() { # key expected actual
    if [ "$(norm "$2")" != "$(norm "$3")" ]; then
        fail "$1: expected '$(norm "$2")', got '$(norm "$3")'"
    fi
}

check scores "$(expect scores)" "$(json_array scores)"
check finished "$(expect finished)" "$(json_scalar finished)"
if has_expect breakdown; then
    check breakdown "$(expect breakdown)" "$(json_breakdown)"
fi
if has_expect supply; then
    check supply "$(expect supply)" "$(json_array supply)"
fi
if has_expect winners; then
    check winners "$(expect winners)" "$(json_array winners)"
fi
if has_expect goods; then
    check goods "$(expect goods)" "$(json_objects goods wine grain cloth)"
fi
if has_expect goods-points; then
    check goods-points "$(expect goods-points)" "$(json_array goods_points)"
fi
if has_expect figures; then
    check figures "$(expect figures)" "$(json_objects figures followers large builder pig)"
fi
if has_expect turns; then
    check turns "$(expect turns)" "$(json_objects history player)"
fi
if has_expect players; then
    check players "$(expect players)" "$(json_scalar players)"
fi

if [ "$failures" -ne 0 ]; then
    show_output
    exit 1
fi
echo "ok [$name] scores $(json_array scores), finished $(json_scalar finished)"
exit 0
