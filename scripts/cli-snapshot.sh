#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes what strobe-cli prints for every command on every fixture (stdout, stderr, exit status)
# into one folder, so two builds can be compared byte for byte:
#   scripts/cli-snapshot.sh OLD/strobe-cli /tmp/before
#   scripts/cli-snapshot.sh NEW/strobe-cli /tmp/after
#   diff -r /tmp/before /tmp/after
# Used to show that a refactoring changed no output. Fixtures: ../shared/fixtures beside the clone,
# or STROBE_FIXTURES_DIR.
set -euo pipefail
cli="$(realpath "$1")"
out="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
fixtures="${STROBE_FIXTURES_DIR:-$root/../shared/fixtures}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

snap() { # NAME ARGS...: one command's three outputs, with the work folder's path made neutral
    local name="$1"
    shift
    local rc=0
    (cd "$work" && "$cli" "$@" >"$out/$name.out" 2>"$out/$name.err") || rc=$?
    echo "$rc" >"$out/$name.rc"
    sed -i "s|$fixtures|FIXTURES|g; s|$work|WORK|g" "$out/$name.out" "$out/$name.err"
}

"$cli" synth -o "$work/synth.sqlite" --events 20000 --seed 7 >/dev/null
files=("$work/synth.sqlite")
for f in "$fixtures"/nsys/*.sqlite "$fixtures"/kineto/*; do
    [ -e "$f" ] && files+=("$f")
done
for f in "${files[@]}"; do
    b="$(basename "$f")"
    snap "$b.info" info "$f"
    snap "$b.info-json" info "$f" --json
    for cmd in kernels kernel-summary nvtx-summary memory-summary gaps ops steps analyze job \
        api-summary osrt-summary memory-size-summary launch-summary; do
        snap "$b.$cmd" "$cmd" "$f"
        snap "$b.$cmd-json" "$cmd" "$f" --format json
    done
    snap "$b.kernel-summary-base" kernel-summary "$f" --base
    snap "$b.nvtx-summary-gpu" nvtx-summary "$f" --gpu
    snap "$b.gaps-10us" gaps "$f" --min-ns 10000
done
snap usage
snap help --help
snap version --version
snap unknown-command frobnicate
snap missing-file info "$work/does-not-exist.sqlite"
