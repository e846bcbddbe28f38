#!/bin/sh
# fuzz.sh [SECONDS] [record|move|protocol|rules|server_message|net|proxy|http_headers|all]:
# long fuzzing outside CI of the record reader (default), the one-line
# move parser, the engine protocol, the rule lists and header lines, the
# game server's request decoder, the .carcnet reader, the server's PROXY
# protocol header and trusted networks, or its HTTP header values.
# Builds the libFuzzer harness in build-fuzz (clang, ASan, UBSan,
# CARC_FUZZ=ON) and runs it for SECONDS (default 600) over its seed corpus.
# What it learns stays in tests/fuzz/CORPUS-run/ (not committed) for the
# next run; crashes and oracle failures go to build-fuzz/fuzz-artifacts/ and
# make the script fail. FUZZ_JOBS=N runs N fuzzing processes at once.
# `all` runs every target in turn, SECONDS each (a nightly run), goes on
# past a failing one, prints a line a target and fails if any failed.
set -eu
seconds=${1:-600}
target=${2:-record}
targets="record move protocol rules server_message net proxy http_headers"
if [ "$target" = all ]; then
    failed=""
    summary=""
    for t in $targets; do
        if "$0" "$seconds" "$t"; then
            summary="$summary
fuzz_$t: nothing found in $seconds s"
        else
            failed="$failed $t"
            summary="$summary
fuzz_$t: FAILED (its output above; inputs in build-fuzz/fuzz-artifacts/)"
        fi
    done
    echo "$summary"
    [ -z "$failed" ] || { echo "fuzz.sh: failed:$failed" >&2; exit 1; }
    exit 0
fi
dict=record.dict
case $target in
record) corpus=corpus max_len=8192 ;;
move) corpus=corpus-move max_len=256 ;;
protocol) corpus=corpus-protocol max_len=4096 dict=protocol.dict ;;
rules) corpus=corpus-rules max_len=4200 ;;
server_message) corpus=corpus-server_message max_len=9000 dict=server_message.dict ;;
net) corpus=corpus-net max_len=8192 dict=net.dict ;;
proxy) corpus=corpus-proxy max_len=1100 dict=proxy.dict ;;
http_headers) corpus=corpus-http_headers max_len=600 dict=http_headers.dict ;;
*) echo "fuzz.sh: unknown target '$target' (record, move, protocol, rules, server_message, net, proxy, http_headers, all)" >&2; exit 2 ;;
esac
jobs=${FUZZ_JOBS:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCARC_FUZZ=ON >/dev/null
cmake --build "$build" --target "fuzz_$target" -j"$(nproc)"

mkdir -p "$root/tests/fuzz/$corpus-run" "$build/fuzz-artifacts"
cd "$build"
set -- -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -dict="$root/tests/fuzz/$dict" \
    -artifact_prefix="$build/fuzz-artifacts/"
if [ "$jobs" -gt 1 ]; then
    set -- "$@" -fork="$jobs" -ignore_crashes=0
fi
echo "fuzzing fuzz_$target for $seconds s ($jobs job(s))"
"$build/tests/fuzz/fuzz_$target" "$@" "$root/tests/fuzz/$corpus-run" "$root/tests/fuzz/$corpus"
