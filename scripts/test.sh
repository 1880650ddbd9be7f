#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ./scripts/test.sh: installs what is missing, builds everything (warnings are errors) and runs
# every test: the formatting check, the GoogleTest suites through ctest, and the .deb package check.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/deps.sh"
strobe_install_deps

jobs="$(nproc)"
build="${STROBE_TEST_BUILD_DIR:-$root/build/ci}"

echo "== Formatting (.clang-format)"
"$root/scripts/check-format.sh"

echo "== Configure and build ($build)"
# shellcheck disable=SC2046
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTROBE_WERROR=ON \
    -DSTROBE_FIXTURES_DIR="$root/../shared/fixtures" $(strobe_cuda_args)
cmake --build "$build" -j "$jobs"

echo "== Unit and integration tests"
ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$jobs" --timeout 600

echo "== Package (.deb) check"
"$root/scripts/check-package.sh" "$build"
echo "All checks passed."
