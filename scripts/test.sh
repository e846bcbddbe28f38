#!/bin/sh
# test.sh: installs what is missing, builds, and runs every test: the
# whole suite in a release build and again under AddressSanitizer and
# UndefinedBehaviorSanitizer (all but the browser test, which runs once,
# against the release server: it takes two to four minutes; the client's
# node tests, which run no C; and the install without `wheel`, a packaging
# check the release pass makes), then
# short libFuzzer runs of the parsers. FUZZ_SECONDS (default 20: a smoke
# run over the seed corpora that keeps the whole command short: about 60 s
# of it, docs/tests.md; long runs are scripts/fuzz.sh) sets the fuzzing
# time.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh --test
jobs=$(nproc)
fuzz_seconds=${FUZZ_SECONDS:-20}
# Two tests more than the cores: many tests wait on a server, a browser,
# a child process or a screen, so at nproc the cores are about 1.5 busy.
# At nproc + 1 the release tests but the browser took 368 s instead of
# 425 s; at nproc + 2, 224 s instead of 243 s (docs/tests.md), all passing.
tests=$((jobs + 2))
# Each step's header says when it began, from the start of this script.
began=$(date +%s)
step() { echo "== [$(($(date +%s) - began)) s] $*"; }

step "release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCARC_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$tests")

step "lint"
scripts/lint.sh

step "sanitizer build (ASan + UBSan)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"

# The fuzzers' build beside the sanitizer tests, at the lowest priority:
# the tests leave about a seventh of the cores idle (they wait on servers
# and children), which the build takes.
step "sanitizer tests (the fuzzers built beside them: build/fuzz-build.log)"
(CC=clang nice -n 19 cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCARC_FUZZ=ON -DCARC_FUZZ_SECONDS="$fuzz_seconds" >/dev/null &&
    nice -n 19 cmake --build build-fuzz -j"$jobs" --target fuzz_record fuzz_move fuzz_protocol fuzz_rules \
        fuzz_server_message fuzz_proxy fuzz_http_headers fuzz_net) >build/fuzz-build.log 2>&1 &
fuzz_build=$!
asan=0
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$tests" \
    -E '^(web\.browser|web\.unit|python\.nowheel)$') || asan=$?
fuzz_build_status=0
wait "$fuzz_build" || fuzz_build_status=$?
step "the fuzzers' build ended"
[ "$fuzz_build_status" -eq 0 ] || cat build/fuzz-build.log
if [ "$asan" -ne 0 ] || [ "$fuzz_build_status" -ne 0 ]; then
    echo "test.sh: failed: sanitizer tests $asan, fuzzers' build $fuzz_build_status" >&2
    exit 1
fi

step "fuzzing the record reader ($fuzz_seconds s), the move parser, the rule lists, the engine protocol, the server's decoder, the PROXY header, the HTTP headers and the .carcnet reader (half as long each)"
# One fuzzer a core: each runs its own time, so two at once halve the wait.
(cd build-fuzz && ctest --output-on-failure -j"$jobs" -R '^fuzz\.')
step "all passed"
