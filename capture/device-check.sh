#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Device check for strobe-capture, for a machine with an NVIDIA GPU, its driver and the CUDA
# toolkit (nvcc + CUPTI), CMake, SQLite and python3; no Qt (the checker is Python's sqlite3).
#
#   capture/device-check.sh [BUILD_DIR]        (default: build/device-check)
#
# 1. builds strobe-capture, strobe-inject, train_loop and multi_gpu with STROBE_CAPTURE_ONLY
#    (no Qt), the forking helper, and strobe-cli as well when Qt6 Core is there;
# 2. logs the driver, toolkit and CUPTI versions;
# 3. captures samples/train_loop and checks the trace with SQL: counts, names, correlation of
#    every kernel, copy and memset with a runtime call that starts no later, session-relative
#    times, kernels inside "Forward" and none during "Data Load", launch types, sync counts,
#    memset memory kind, GPU info without fake driver rows, the capture's metadata;
# 4. a --duration run and a SIGTERM run: exit status, no negative or inverted times;
# 5. the forking helper: a worker killed with SIGTERM leaves the traced parent running;
# 6. multi_gpu: every context and sync row maps to the GPU it ran on (all GPUs present);
# 7. times the sample plainly and under capture and prints the overhead ratio.
# Every run fails the check on a `strobe-inject:` error or warning line and on a leftover
# *.tmp-* file. Traces and logs of a failed check are kept in KEEP_DIR (default
# BUILD_DIR/device-check-failed, or $OUT/device-check when $OUT is set). Exits 0 when every
# check passes, 1 otherwise.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-"$repo/build/device-check"}
keep=${KEEP_DIR:-${OUT:+$OUT/device-check}}
keep=${keep:-"$build/device-check-failed"}
epochs=2
iterations=10
work=$(mktemp -d "${TMPDIR:-/tmp}/strobe-device-check.XXXXXX")
failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}
finish() {
    if ((failures > 0)); then
        mkdir -p "$keep" && cp -r "$work"/. "$keep"/ && echo "device-check: kept traces and logs in $keep"
    fi
    rm -rf "$work"
}
trap finish EXIT

echo "== versions"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader || fail "nvidia-smi"
nvcc --version | tail -n 2 || fail "nvcc"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
echo "GPUs: $gpus"

echo "== build ($build)"
# With Qt6 Core the full configure also gives strobe-cli; without it, the capture-only one.
qt=ON
if ! cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSTROBE_BUILD_GUI=OFF \
    -DSTROBE_BUILD_TESTS=OFF -DSTROBE_BUILD_BENCH=OFF -DSTROBE_BUILD_CAPTURE=ON \
    >"$work/configure.log" 2>&1; then
    qt=OFF
    build="$build-capture-only"
    cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSTROBE_CAPTURE_ONLY=ON \
        -DSTROBE_BUILD_TESTS=OFF -DSTROBE_BUILD_BENCH=OFF >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log"; echo "device-check: configure failed"; exit 1; }
fi
echo "Qt6 Core (strobe-cli): $qt"
grep -E "strobe-capture:|samples:" "$work/configure.log" || true
targets=(strobe-capture strobe-inject train_loop multi_gpu)
[[ $qt == ON ]] && targets+=(strobe-cli)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" || { echo "device-check: build failed"; exit 1; }
find_exe() { find "$build" -type f -name "$1" -perm -u+x -not -path '*/CMakeFiles/*' | head -n 1; }
capture=$(find_exe strobe-capture)
sample=$(find_exe train_loop)
multi=$(find_exe multi_gpu)
cli=$(find_exe strobe-cli)
for exe in "$capture" "$sample" "$multi"; do
    [[ -n "$exe" ]] || { echo "device-check: a target was not built (is CUDA found?)"; exit 1; }
done
fork_helper="$build/fork_program"
c++ -std=c++17 -O2 -I"$(dirname "$(command -v nvcc)")/../include" "$repo/tests/capture/fork_program.cpp" \
    -o "$fork_helper" -ldl -lpthread || fail "building the forking helper"
echo "strobe-capture: $capture"

# run_capture NAME EXPECTED_STATUS ALLOW_SKIPPED -- ARGS...: runs strobe-capture, checks its exit
# status, its `strobe-inject:` lines and leftover temporary files; the log is $work/NAME.log.
run_capture() {
    local name=$1 want=$2 allow_skipped=$3
    shift 4
    "$capture" "$@" >"$work/$name.log" 2>&1
    check_run "$name" $? "$want" "$allow_skipped"
}
check_run() {
    local name=$1 got=$2 want=$3 allow_skipped=$4
    [[ $got == "$want" ]] && echo "ok   $name exit status $got" || fail "$name exit status $got (expected $want)"
    # Informational lines: "trace written to ... (stopped by ...)". Skipped records are expected
    # only where a forced flush cut GPU work short (--duration, SIGTERM).
    local bad
    bad=$(grep '^strobe-inject:' "$work/$name.log" | grep -v '^strobe-inject: trace written to ' |
        { if [[ $allow_skipped == yes ]]; then grep -v '^strobe-inject: warning: skipped '; else cat; fi; } || true)
    [[ -z $bad ]] && echo "ok   $name: no strobe-inject error lines" || fail "$name: $bad"
    local left
    left=$(find "$work" -name '*.tmp-*' | head -n 5)
    [[ -z $left ]] && echo "ok   $name: no temporary files left" || fail "$name left $left"
}

echo "== capture train_loop $epochs x $iterations"
trace="$work/train_loop.sqlite"
run_capture main 0 no -- -o "$trace" -- "$sample" "$epochs" "$iterations"
cat "$work/main.log"
if [[ -n $cli ]]; then
    "$cli" info "$trace" --json >"$work/info.json" && echo "ok   strobe-cli info opens the trace" ||
        fail "strobe-cli info"
fi
python3 "$repo/capture/device-check.py" train "$trace" "$epochs" "$iterations" "$gpus" || fail "train_loop checks"

echo "== --duration and SIGTERM (train_loop 4 x 50)"
run_capture duration 0 yes -- -o "$work/duration.sqlite" --duration 0.6 -- "$sample" 4 50
python3 "$repo/capture/device-check.py" stopped "$work/duration.sqlite" duration || fail "--duration trace"
"$capture" -o "$work/sigterm.sqlite" -- "$sample" 4 50 >"$work/sigterm.log" 2>&1 &
launcher=$!
sleep 1.0
kill -TERM "$launcher"
wait "$launcher"
check_run sigterm $? 143 yes
python3 "$repo/capture/device-check.py" stopped "$work/sigterm.sqlite" signal || fail "SIGTERM trace"

echo "== forking helper"
run_capture fork 0 no -- -o "$work/fork.sqlite" -- "$fork_helper"
grep -q "worker ended by signal 15" "$work/fork.log" && echo "ok   the worker died of SIGTERM" ||
    fail "fork: the worker did not die of SIGTERM"
python3 "$repo/capture/device-check.py" fork "$work/fork.sqlite" || fail "fork trace"

echo "== multi_gpu ($gpus GPUs)"
run_capture multi 0 no -- -o "$work/multi.sqlite" -- "$multi"
python3 "$repo/capture/device-check.py" multi "$work/multi.sqlite" "$gpus" || fail "multi_gpu trace"

echo "== overhead (train_loop 3 x 30, 3 runs each)"
python3 - "$capture" "$sample" "$work" <<'PY' || fail "overhead run"
import os, statistics, subprocess, sys, time
capture, sample, work = sys.argv[1:4]
def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
subprocess.run([sample, "1", "1"], check=True, stdout=subprocess.DEVNULL)  # warm the driver
plain = [timed([sample, "3", "30"]) for _ in range(3)]
traced = [timed([capture, "-o", os.path.join(work, f"bench{k}.sqlite"), "--", sample, "3", "30"])
          for k in range(3)]
print("plain   s:", " ".join(f"{t:.3f}" for t in plain))
print("capture s:", " ".join(f"{t:.3f}" for t in traced))
print(f"overhead ratio (median capture / median plain): {statistics.median(traced) / statistics.median(plain):.3f}")
PY

echo
if ((failures > 0)); then
    echo "device-check: $failures check group(s) failed"
    exit 1
fi
echo "device-check: all checks passed"
