#!/bin/sh
# run_fuzz.sh FUZZER FUZZ_DIR WORK_DIR SECONDS: the fuzz.record test.
# Fuzzes the record reader for SECONDS over the seed corpus (inputs up to
# 8 KiB), then runs inputs around the reader's limits (line length, record
# size) once each and fuzzes those briefly. A crash, a sanitizer report or
# an oracle failure fails the test; the input is kept in WORK_DIR/artifacts.
set -eu
fuzzer=$1
dir=$2
work=$3
seconds=$4
rm -rf "$work"
mkdir -p "$work/new" "$work/big" "$work/artifacts"
set -- -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -dict="$dir/record.dict" -artifact_prefix="$work/artifacts/"

echo "== fuzzing for $seconds s over the seed corpus"
"$fuzzer" "$@" -max_total_time="$seconds" -max_len=8192 "$work/new" "$dir/corpus"

echo "== big inputs"
big=$work/big
pad='# padding padding padding padding padding padding padding padding'
# "players 2" and comment lines, cut at exactly N bytes.
padded() { { printf 'players 2\n'; yes "$pad"; } | head -c "$1"; }
padded 1048576 >"$big/limit"
padded 1048577 >"$big/limit-plus-1"
padded 2097152 >"$big/twice-limit"
{ cat "$dir/corpus/game-2p.txt"; yes "$pad"; } | head -c 1048000 >"$big/game-padded"
{ printf 'players 2\n#'; head -c 4095 /dev/zero | tr '\0' x; printf '\nE 0 -1 2 S\n'; } >"$big/line-at-limit"
{ printf 'players 2\n#'; head -c 5000 /dev/zero | tr '\0' x; printf '\n'; } >"$big/line-too-long"
head -c 1500000 /dev/zero | tr '\0' E >"$big/one-huge-line"
head -c 1048600 /dev/zero | tr '\0' '\n' >"$big/empty-lines"
{ printf 'players 2\n'; yes 'E 0 -1 2 S'; } | head -c 1100000 >"$big/repeated-moves"
{ printf 'players 2\r\n'; yes '# crlf comment line' | sed 's/$/\r/'; } | head -c 1048576 >"$big/crlf"
"$fuzzer" "$@" "$big"/*

short=$((seconds / 6))
[ "$short" -ge 5 ] || short=5
echo "== fuzzing big inputs for $short s"
"$fuzzer" "$@" -max_total_time="$short" -max_len=2200000 "$big"
