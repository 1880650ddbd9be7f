#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ./scripts/test.sh: installs what is missing, then runs every check CI runs, through the CMake
# presets (CMakePresets.json):
#   1. formatting (.clang-format) and the layer rules (scripts/check-layers.sh);
#   2. the release preset: build with warnings as errors, clang-tidy over the product code
#      (scripts/check-tidy.sh, .clang-tidy: any finding fails), every GoogleTest suite through
#      ctest, the documentation claims and the .deb package check;
#   3. the asan preset: every suite again, the widget, render and main-window ones included,
#      under AddressSanitizer and UndefinedBehaviorSanitizer (any report fails the run), then the
#      mutation fuzzer over the fixtures and hand-made hostile databases for three minutes
#      (scripts/fuzz.sh).
# STROBE_SKIP_ASAN=1 skips step 3 (for a quick local run; CI never sets it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# Each step's wall time, printed as it ends and again as a table when the script exits (on a
# failure too), so that a slow CI run says where its minutes went.
step_names=()
step_seconds=()
step_name=""
step_began=$SECONDS
step_end() {
    if [ -n "$step_name" ]; then
        local took=$((SECONDS - step_began))
        step_names+=("$step_name")
        step_seconds+=("$took")
        echo "-- $step_name: ${took} s"
    fi
    step_name=""
}
step() {
    step_end
    step_name="$1"
    step_began=$SECONDS
    echo "== $1"
}
step_table() {
    step_end
    echo "== Wall time per step"
    local i
    for i in "${!step_names[@]}"; do
        printf '%6d s  %s\n' "${step_seconds[$i]}" "${step_names[$i]}"
    done
    printf '%6d s  in all\n' "$SECONDS"
}
trap step_table EXIT

step "Dependencies (scripts/deps.sh)"
source "$root/scripts/deps.sh"
strobe_install_deps

jobs="$(nproc)"
export CCACHE_BASEDIR="$root"

step "Formatting (.clang-format) and layers"
"$root/scripts/check-format.sh"
"$root/scripts/check-layers.sh"

step "Release preset: configure and build (build/release)"
# shellcheck disable=SC2046
cmake --preset release $(strobe_cuda_args) | tail -n 4
# The configure line saying the capture tests were skipped is cut by the tail above: say it here.
if ! grep -q '^strobe-capture' <(cmake --build --preset release --target help); then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        echo "error: the CUDA toolkit is installed but strobe-capture and its tests were not configured" >&2
        exit 1
    fi
    echo "capture tests not built: no CUDA toolkit with CUPTI and NVTX"
fi
cmake --build --preset release -j "$jobs"

step "clang-tidy over the product code (.clang-tidy)"
"$root/scripts/check-tidy.sh" "$root/build/release"

step "Release preset: unit and integration tests"
ctest --preset release -j "$jobs"

step "Documentation claims (commands, flags, CSV headers, key bindings, images)"
"$root/scripts/check-docs.sh" "$root/build/release" "$root/../shared/fixtures"

step "Package (.deb) check"
"$root/scripts/check-package.sh" "$root/build/release"

if [ "${STROBE_SKIP_ASAN:-0}" != 1 ]; then
    step "Asan preset: configure and build (build/asan)"
    cmake --preset asan | tail -n 2
    cmake --build --preset asan -j "$jobs"
    step "Asan preset: every suite, the GUI ones included, under ASan + UBSan"
    ctest --preset asan -j "$jobs"
    step "Fuzzing the readers and every CLI command under ASan + UBSan (3 minutes)"
    # A fixed seed keeps a CI run reproducible; STROBE_FUZZ_SEED explores others.
    STROBE_FUZZ_SEED="${STROBE_FUZZ_SEED:-20261201}" "$root/scripts/fuzz.sh" "$root/build/asan" \
        "${STROBE_FUZZ_SECONDS:-180}"
fi
step_end
echo "All checks passed."
