#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Device check for strobe-capture, for a machine with an NVIDIA GPU, its driver and the CUDA
# toolkit (nvcc + CUPTI). Run from anywhere:
#
#   capture/device-check.sh [BUILD_DIR]        (default: build/device-check)
#
# 1. builds strobe-capture, strobe-inject, train_loop and strobe-cli (Release);
# 2. captures samples/train_loop (2 epochs x 10 iterations) and checks, with strobe-cli info
#    --json, strobe-cli kernel-summary and direct SQL on the trace, that the recorded kernels,
#    copies, memsets and NVTX ranges match what the sample is known to do;
# 3. times the sample 3 times plainly and 3 times under capture and prints the overhead ratio.
# Exits 0 when every check passes, 1 otherwise. Needs bash, cmake, python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-"$repo/build/device-check"}
epochs=2
iterations=10
bench_epochs=3
bench_iterations=30
work=$(mktemp -d "${TMPDIR:-/tmp}/strobe-device-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== build ($build)"
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSTROBE_BUILD_GUI=OFF \
    -DSTROBE_BUILD_TESTS=OFF -DSTROBE_BUILD_BENCH=OFF -DSTROBE_BUILD_CAPTURE=ON >"$work/configure.log" 2>&1 \
    || { cat "$work/configure.log"; echo "device-check: configure failed"; exit 1; }
grep -E "strobe-capture:|samples:" "$work/configure.log" || true
cmake --build "$build" -j "$(nproc)" --target strobe-capture strobe-inject train_loop strobe-cli

find_exe() { # the built executable $1 under the build tree
    find "$build" -type f -name "$1" -perm -u+x -not -path '*/CMakeFiles/*' | head -n 1
}
capture=$(find_exe strobe-capture)
sample=$(find_exe train_loop)
cli=$(find_exe strobe-cli)
for exe in "$capture" "$sample" "$cli"; do
    [[ -n "$exe" ]] || { echo "device-check: a target was not built (is CUDA found?)"; exit 1; }
done
echo "strobe-capture: $capture"
echo "train_loop:     $sample"
echo "strobe-cli:     $cli"

echo "== capture"
trace="$work/train_loop.sqlite"
"$capture" -o "$trace" -- "$sample" "$epochs" "$iterations"
"$cli" info "$trace" --json >"$work/info.json"
"$cli" kernel-summary "$trace" >"$work/kernel-summary.csv"
cat "$work/info.json"
cat "$work/kernel-summary.csv"

echo "== checks"
checks_status=0
python3 - "$trace" "$work/info.json" "$work/kernel-summary.csv" "$epochs" "$iterations" <<'PY' || checks_status=$?
import csv, json, sqlite3, sys

trace, info_path, summary_path = sys.argv[1:4]
E, I = int(sys.argv[4]), int(sys.argv[5])
N = E * I
failures = []

def check(what, got, want):
    ok = got == want
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r}" + ("" if ok else f" (expected {want!r})"))
    if not ok:
        failures.append(what)

info = json.load(open(info_path))
counts = info["counts"]
# init_weights once; per iteration conv, 3 gemm, softmax, sgd_update.
check("info kernels", counts["kernels"], 1 + 6 * N)
check("info memcpys", counts["memcpys"], 3 * N)
check("info memsets", counts["memsets"], N)
check("info nvtx_ranges", counts["nvtx_ranges"], E + 5 * N)
check("info nvtx_marks", counts["nvtx_marks"], E)
check("info cuda_api_calls > 0", counts["cuda_api_calls"] > 0, True)
check("info format", info["format"], "nsys-sqlite")
check("one process named train_loop", [p["name"] for p in info["processes"]], ["train_loop"])
check("at least one GPU", len(info["gpus"]) >= 1, True)
if info["gpus"]:
    g = info["gpus"][0]
    check("GPU has a name", bool(g["name"]), True)
    check("GPU has SMs", g["sm_count"] > 0, True)
check("time range starts near 0 (session time)", 0 <= info["time_range_ns"][0] < 30_000_000_000, True)

rows = list(csv.DictReader(open(summary_path)))
def instances(base):
    return sum(int(r["instances"]) for r in rows if base in r["name"])
check("summary conv2d_forward_kernel", instances("conv2d_forward_kernel"), N)
check("summary gemm_tiled_kernel", instances("gemm_tiled_kernel"), 3 * N)
check("summary softmax_kernel", instances("softmax_kernel"), N)
check("summary sgd_update_kernel", instances("sgd_update_kernel"), N)
check("summary init_weights_kernel", instances("init_weights_kernel"), 1)
pct = {b: sum(float(r["time_percent"]) for r in rows if b in r["name"])
       for b in ("conv2d_forward_kernel", "gemm_tiled_kernel")}
check("conv + gemm dominate GPU time (> 50 %)", pct["conv2d_forward_kernel"] + pct["gemm_tiled_kernel"] > 50, True)

db = sqlite3.connect(trace)
q = lambda sql: db.execute(sql).fetchall()
short = "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"
check("short names", sorted(set(r[0] for r in q(short))),
      sorted(["init_weights_kernel", "conv2d_forward_kernel", "gemm_tiled_kernel",
              "softmax_kernel", "sgd_update_kernel"]))
check("softmax grid", q("SELECT DISTINCT k.gridX, k.gridY, k.gridZ, k.blockX FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                        "JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'softmax_kernel'"),
      [(4, 1, 1, 128)])
check("gemm block and static shared memory",
      q("SELECT DISTINCT k.blockX, k.blockY, k.staticSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'gemm_tiled_kernel'"),
      [(16, 16, 2 * 16 * 16 * 4)])
check("kernels use registers", q("SELECT MIN(registersPerThread) > 0 FROM CUPTI_ACTIVITY_KIND_KERNEL")[0][0], 1)
check("demangled gemm name",
      q("SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
        "JOIN StringIds t ON t.id = k.shortName WHERE t.value = 'gemm_tiled_kernel'"),
      [("gemm_tiled_kernel(float const*, float const*, float*, int)",)])
# copyKind 1 HtoD / 2 DtoH; ENUM_CUDA_MEM_KIND 0 pageable, 1 pinned, 2 device.
check("pageable HtoD copies", q("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 0")[0][0], N)
check("pinned HtoD copies", q("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 1")[0][0], N)
check("pinned DtoH copies", q("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 2 AND dstKind = 1")[0][0], N)
check("memset bytes", q("SELECT DISTINCT bytes FROM CUPTI_ACTIVITY_KIND_MEMSET"), [(768 * 768,)])
check("two streams carry copies and kernels",
      q("SELECT COUNT(DISTINCT streamId) FROM (SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL "
        "UNION ALL SELECT streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY)")[0][0] >= 2, True)
check("a pinned copy overlaps a kernel",
      q("SELECT COUNT(*) > 0 FROM CUPTI_ACTIVITY_KIND_MEMCPY m, CUPTI_ACTIVITY_KIND_KERNEL k "
        "WHERE m.srcKind = 1 AND m.streamId != k.streamId AND m.start < k.\"end\" AND k.start < m.\"end\"")[0][0], 1)
check("every kernel has its launching runtime call",
      q("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE NOT EXISTS (SELECT 1 FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND r.eventClass = 0)")[0][0], 0)
check("launch API name",
      q("SELECT COUNT(*) > 0 FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
        "WHERE s.value LIKE 'cudaLaunchKernel%'")[0][0], 1)
check("device syncs recorded", q("SELECT COUNT(*) >= " + str(N) + " FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")[0][0], 1)
nvtx = dict(q("SELECT text, COUNT(*) FROM NVTX_EVENTS WHERE eventType = 59 GROUP BY text"))
for name, want in (("Epoch", E), ("Iteration", N), ("Data Load", N), ("Forward", N),
                   ("Backward", N), ("Optimizer", N)):
    check(f"NVTX '{name}'", nvtx.get(name, 0), want)
check("NVTX colours", q("SELECT DISTINCT color & 0xFFFFFFFF FROM NVTX_EVENTS WHERE text = 'Forward'"), [(0xFF59A14F,)])
check("Forward nested in an Iteration",
      q("SELECT COUNT(*) FROM NVTX_EVENTS f WHERE f.text = 'Forward' AND EXISTS (SELECT 1 FROM NVTX_EVENTS i "
        "WHERE i.text = 'Iteration' AND i.start <= f.start AND f.\"end\" <= i.\"end\")")[0][0], N)
check("data load leaves the GPU idle ~5 ms",
      q("SELECT MIN(d.\"end\" - d.start) >= 5000000 FROM NVTX_EVENTS d WHERE d.text = 'Data Load'")[0][0], 1)
gpu = q("SELECT name, smCount, maxThreadsPerBlock, maxRegistersPerSm, maxShmemPerBlockOptin, "
        "maxWarpsPerSm, computeMajor, totalMemory FROM TARGET_INFO_GPU")
print("TARGET_INFO_GPU:", gpu)
check("GPU limits filled", bool(gpu) and all(v not in (None, 0, "") for v in gpu[0]), True)
check("main thread named", q("SELECT COUNT(*) > 0 FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
                             "WHERE s.value = 'train_loop'")[0][0], 1)

print(f"\n{len(failures)} check(s) failed" if failures else "\nall checks passed")
sys.exit(1 if failures else 0)
PY

echo "== overhead (train_loop $bench_epochs x $bench_iterations, 3 runs each)"
python3 - "$capture" "$sample" "$work" "$bench_epochs" "$bench_iterations" <<'PY'
import os, statistics, subprocess, sys, time

capture, sample, work, e, i = sys.argv[1:6]
def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
subprocess.run([sample, "1", "1"], check=True, stdout=subprocess.DEVNULL)  # warm the driver
plain = [timed([sample, e, i]) for _ in range(3)]
traced = [timed([capture, "-o", os.path.join(work, f"bench{k}.sqlite"), "--", sample, e, i])
          for k in range(3)]
print("plain   s:", " ".join(f"{t:.3f}" for t in plain))
print("capture s:", " ".join(f"{t:.3f}" for t in traced))
print(f"overhead ratio (median capture / median plain): {statistics.median(traced) / statistics.median(plain):.3f}")
PY

exit "$checks_status"
