#!/bin/sh
# fuzz.sh [SECONDS]: long fuzzing of the record reader, outside CI. Builds
# the libFuzzer harness in build-fuzz (clang, ASan, UBSan, CARC_FUZZ=ON)
# and runs it for SECONDS (default 600) over the seed corpus, inputs up to
# 8 KiB. What it learns stays in tests/fuzz/corpus-run/ (not committed) for
# the next run; crashes and oracle failures go to build-fuzz/fuzz-artifacts/
# and make the script fail. FUZZ_JOBS=N runs N fuzzing processes at once.
set -eu
seconds=${1:-600}
jobs=${FUZZ_JOBS:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCARC_FUZZ=ON >/dev/null
cmake --build "$build" --target fuzz_record -j"$(nproc)"

mkdir -p "$root/tests/fuzz/corpus-run" "$build/fuzz-artifacts"
cd "$build"
set -- -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -dict="$root/tests/fuzz/record.dict" \
    -artifact_prefix="$build/fuzz-artifacts/"
if [ "$jobs" -gt 1 ]; then
    set -- "$@" -fork="$jobs" -ignore_crashes=0
fi
echo "fuzzing the record reader for $seconds s ($jobs job(s))"
"$build/tests/fuzz/fuzz_record" "$@" "$root/tests/fuzz/corpus-run" "$root/tests/fuzz/corpus"
