#!/bin/sh
# test.sh: installs what is missing, builds, and runs every test: the
# whole suite in a release build and again under AddressSanitizer and
# UndefinedBehaviorSanitizer (all but the browser test, which runs once,
# against the release server: it takes two and a half minutes; the client's
# node tests, which run no C; and the install without `wheel`, a packaging
# check the release pass makes), then
# short libFuzzer runs of the parsers. FUZZ_SECONDS (default 30: a smoke
# run that keeps the whole command under 20 minutes on a slow day; long
# runs are scripts/fuzz.sh) sets the fuzzing time.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh --test
jobs=$(nproc)
# One test more than the cores: many tests wait on a server, a browser or
# a child process, so at nproc the cores are about 1.5 busy; at nproc + 1
# the release tests but the browser took 368 s instead of 425 s, all passing
# (docs/tests.md).
tests=$((jobs + 1))

echo "== release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCARC_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$tests")

echo "== lint"
scripts/lint.sh

echo "== sanitizer build (ASan + UBSan) and tests"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$tests" \
    -E '^(web\.browser|web\.unit|python\.nowheel)$')

echo "== fuzzing the record reader (${FUZZ_SECONDS:-30} s), the move parser, the rule lists, the engine protocol, the server's decoder, the PROXY header, the HTTP headers and the .carcnet reader (half as long each)"
CC=clang cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCARC_FUZZ=ON -DCARC_FUZZ_SECONDS="${FUZZ_SECONDS:-30}" >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_record fuzz_move fuzz_protocol fuzz_rules \
    fuzz_server_message fuzz_proxy fuzz_http_headers fuzz_net
# One fuzzer a core: each runs its own time, so two at once halve the wait.
(cd build-fuzz && ctest --output-on-failure -j"$jobs" -R '^fuzz\.')
