#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ./scripts/test.sh: installs what is missing, then runs every check CI runs, through the CMake
# presets (CMakePresets.json):
#   1. formatting (.clang-format) and the layer rules (scripts/check-layers.sh);
#   2. the release preset: build with warnings as errors, every GoogleTest suite through ctest,
#      and the .deb package check;
#   3. the asan preset: the model, formats and CLI suites again under AddressSanitizer and
#      UndefinedBehaviorSanitizer (any report fails the run).
# STROBE_SKIP_ASAN=1 skips step 3 (for a quick local run; CI never sets it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source "$root/scripts/deps.sh"
strobe_install_deps

jobs="$(nproc)"
export CCACHE_BASEDIR="$root"

echo "== Formatting (.clang-format) and layers"
"$root/scripts/check-format.sh"
"$root/scripts/check-layers.sh"

echo "== Release preset: configure and build (build/release)"
# shellcheck disable=SC2046
cmake --preset release $(strobe_cuda_args) | tail -n 4
if [ -x /usr/local/cuda/bin/nvcc ] && ! grep -q '^strobe-capture' <(cmake --build --preset release --target help); then
    echo "error: the CUDA toolkit is installed but strobe-capture and its tests were not configured" >&2
    exit 1
fi
cmake --build --preset release -j "$jobs"

echo "== Release preset: unit and integration tests"
ctest --preset release -j "$jobs"

echo "== Documentation claims (commands, flags, CSV headers, key bindings, images)"
"$root/scripts/check-docs.sh" "$root/build/release" "$root/../shared/fixtures"

echo "== Package (.deb) check"
"$root/scripts/check-package.sh" "$root/build/release"

if [ "${STROBE_SKIP_ASAN:-0}" != 1 ]; then
    echo "== Asan preset: model, formats and CLI suites under ASan + UBSan (build/asan)"
    cmake --preset asan | tail -n 2
    cmake --build --preset asan -j "$jobs"
    ctest --preset asan -j "$jobs"
fi
echo "All checks passed."
