#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/fuzz.sh BUILD_DIR [SECONDS]: builds the mutation fuzzer (tests/fuzz) in BUILD_DIR, an
# already configured build tree (meant: the asan preset, build/asan, so ASan + UBSan watch every
# round), and runs it for SECONDS (default: $STROBE_FUZZ_SECONDS, else 180). Half the rounds
# mutate an nsys SQLite seed, half a Kineto JSON one (the shared fixtures, plain and gzip, and a
# synthetic trace); every round loads the case and runs the CLI commands on it, one in eight also
# `render` to a temporary PNG (the asan preset builds the painters: they need only Qt Gui); every
# sixth round damages a reopen-cache entry instead (bit flips, truncation, counts past the end, a
# symlink or a FIFO in its place) and loads its intact trace again through the cache. Any
# sanitizer report stops the run (halt_on_error); exit status 0 only when nothing was found.
# Failing inputs are kept in the current folder as fuzz-failure-case-N.sqlite, .json or .json.gz.
# scripts/test.sh calls it after ctest:
#   cmake --preset asan -DSTROBE_FIXTURES_DIR=... && scripts/fuzz.sh build/asan 180
set -euo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: scripts/fuzz.sh BUILD_DIR [SECONDS]" >&2
    exit 2
fi
build="$1"
seconds="${2:-${STROBE_FUZZ_SECONDS:-180}}"
seed="${STROBE_FUZZ_SEED:-$(date +%s)}"
cmake --build "$build" --target strobe_fuzz -j "$(nproc)"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
echo "== Fuzzing for ${seconds} s (seed ${seed}) with $build/tests/fuzz/strobe_fuzz"
"$build/tests/fuzz/strobe_fuzz" "$seconds" "$seed"
