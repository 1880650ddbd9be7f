#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ./scripts/run.sh [TRACE]: installs what is missing, builds Strobe in Release and opens the
# viewer on TRACE, or on the embedded sample trace when no file is given.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/deps.sh"
strobe_install_deps

build="$root/build/release"
# The release preset, shared with test.sh; only the two programs are built here.
cd "$root"
# shellcheck disable=SC2046
cmake --preset release $(strobe_cuda_args) >/dev/null
CCACHE_BASEDIR="$root" cmake --build --preset release --target strobe strobe-cli
cd - >/dev/null

args=()
for a in "$@"; do
    # Relative paths are relative to where the user ran the script.
    if [ -e "$a" ]; then args+=("$(realpath "$a")"); else args+=("$a"); fi
done
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "No display found: starting Strobe under Xvfb (set DISPLAY to use your screen)."
    exec xvfb-run -a -s "-screen 0 1920x1080x24" "$build/app/strobe" "${args[@]}"
fi
exec "$build/app/strobe" "${args[@]}"
