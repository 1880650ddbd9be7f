#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The SQL checks of capture/device-check.sh, Qt-free (Python's sqlite3). Modes:
#   train   TRACE EPOCHS ITERATIONS GPUS   the full train_loop capture
#   stopped TRACE END                      a --duration (END=duration) or SIGTERM (signal) run
#   fork    TRACE                          the forking helper
#   multi   TRACE GPUS                     multi_gpu
# Prints one line per check and exits 1 when any failed.
import sqlite3
import sys

failures = []


def check(what, got, want):
    ok = got == want
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r}" + ("" if ok else f" (expected {want!r})"))
    if not ok:
        failures.append(what)


def open_trace(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return db, tables


def q(db, sql):
    return db.execute(sql).fetchall()


def meta(db):
    return dict(q(db, "SELECT name, value FROM META_DATA_CAPTURE"))


TIMED = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
         "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"]


def check_times(db, tables):
    """No row starts before the session (t = 0) or ends before it starts."""
    for t in TIMED:
        if t in tables:
            check(f"{t}: rows before the session or inverted",
                  q(db, f'SELECT COUNT(*) FROM {t} WHERE start < 0 OR "end" < start')[0][0], 0)
    if "NVTX_EVENTS" in tables:
        check("NVTX_EVENTS: rows before the session or inverted",
              q(db, 'SELECT COUNT(*) FROM NVTX_EVENTS WHERE start < 0 OR "end" < start')[0][0], 0)


def check_correlation(db, tables):
    """Every kernel, copy and memset has a runtime call with its correlation id that starts no
    later than the GPU work."""
    for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
        if t not in tables:
            continue
        check(f"{t}: rows without a runtime call starting no later",
              q(db, f"SELECT COUNT(*) FROM {t} g WHERE NOT EXISTS (SELECT 1 FROM "
                    "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = g.correlationId AND "
                    "r.eventClass = 0 AND r.start <= g.start)")[0][0], 0)


def check_clean_metadata(m, end):
    check("STROBE_CUDA_TRACE", m.get("STROBE_CUDA_TRACE"), "enabled")
    check("STROBE_CUPTI_ENABLE_FAILURES", m.get("STROBE_CUPTI_ENABLE_FAILURES"), None)
    check("STROBE_CUPTI_DROPPED_RECORDS", m.get("STROBE_CUPTI_DROPPED_RECORDS"), "0")
    check("STROBE_CAPTURE_END", m.get("STROBE_CAPTURE_END"), end)
    check("STROBE_TRACE_INCOMPLETE", m.get("STROBE_TRACE_INCOMPLETE"), "0")
    check("STROBE_FLUSH_ON_CONTEXT_DESTROY", m.get("STROBE_FLUSH_ON_CONTEXT_DESTROY"), "enabled")
    check("STROBE_CUPTI_VERSION == STROBE_CUPTI_VERSION_BUILT", m.get("STROBE_CUPTI_VERSION"),
          m.get("STROBE_CUPTI_VERSION_BUILT"))
    print("versions: CUPTI", m.get("STROBE_CUPTI_VERSION"), "built", m.get("STROBE_CUPTI_VERSION_BUILT"),
          "driver", m.get("STROBE_CUDA_DRIVER_VERSION"), "| recorder peak bytes",
          m.get("STROBE_RECORDER_PEAK_BYTES"))


def train(path, E, I, gpus):
    N = E * I
    db, tables = open_trace(path)
    m = meta(db)
    check_clean_metadata(m, "exit")
    check("skipped records", (m.get("STROBE_RECORDS_SKIPPED_ZERO_START"),
                              m.get("STROBE_RECORDS_SKIPPED_INVERTED")), ("0", "0"))
    check_times(db, tables)
    check_correlation(db, tables)
    short = ("SELECT s.value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
             "ON s.id = k.shortName GROUP BY s.value")
    check("kernels per name", dict(q(db, short)),
          {"init_weights_kernel": 1, "conv2d_forward_kernel": N, "gemm_tiled_kernel": 3 * N,
           "softmax_kernel": N, "sgd_update_kernel": N})
    check("launch type 1 (regular) for every kernel",
          q(db, "SELECT DISTINCT launchType FROM CUPTI_ACTIVITY_KIND_KERNEL"), [(1,)])
    check("softmax grid", q(db, "SELECT DISTINCT k.gridX, k.gridY, k.gridZ, k.blockX FROM "
                                "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                                "WHERE s.value = 'softmax_kernel'"), [(4, 1, 1, 128)])
    check("gemm block and static shared memory",
          q(db, "SELECT DISTINCT k.blockX, k.blockY, k.staticSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                "JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'gemm_tiled_kernel'"),
          [(16, 16, 2 * 16 * 16 * 4)])
    check("kernels use registers",
          q(db, "SELECT MIN(registersPerThread) > 0 FROM CUPTI_ACTIVITY_KIND_KERNEL")[0][0], 1)
    # copyKind 1 HtoD / 2 DtoH; ENUM_CUDA_MEM_KIND 0 pageable, 1 pinned, 2 device.
    check("copies (kind, src, dst)",
          dict(q(db, "SELECT copyKind || '/' || srcKind || '/' || dstKind, COUNT(*) FROM "
                     "CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1")),
          {"1/0/2": N, "1/1/2": N, "2/2/1": N})
    check("memsets: bytes and memory kind (2 = device)",
          q(db, "SELECT bytes, memKind, COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET GROUP BY 1, 2"),
          [(768 * 768, 2, N)])
    # ENUM_CUPTI_SYNC_TYPE: 2 stream wait event (cudaStreamWaitEvent per iteration),
    # 4 context sync (cudaDeviceSynchronize per iteration and once before the loop).
    check("syncs per type", dict(q(db, "SELECT syncType, COUNT(*) FROM "
                                       "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION GROUP BY syncType")),
          {2: N, 4: N + 1})
    check("sync rows on the kernels' device",
          q(db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y WHERE y.deviceId NOT IN "
                "(SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.contextId = y.contextId)")[0][0], 0)
    nvtx = dict(q(db, "SELECT text, COUNT(*) FROM NVTX_EVENTS WHERE eventType = 59 GROUP BY text"))
    check("NVTX ranges", nvtx, {"Epoch": E, "Iteration": N, "Data Load": N, "Forward": N,
                                "Backward": N, "Optimizer": N})
    check("NVTX marks", q(db, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 34")[0][0], E)
    check("each convolution launch lies in a Forward range on its thread",
          q(db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId AND r.eventClass = 0 "
                "WHERE s.value = 'conv2d_forward_kernel' AND EXISTS (SELECT 1 FROM NVTX_EVENTS f WHERE "
                "f.text = 'Forward' AND f.globalTid = r.globalTid AND f.start <= r.start AND "
                "r.\"end\" <= f.\"end\")")[0][0], N)
    check("no kernel runs during a Data Load range",
          q(db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k, NVTX_EVENTS d WHERE "
                "d.text = 'Data Load' AND k.start < d.\"end\" AND d.start < k.\"end\"")[0][0], 0)
    check("a pinned copy overlaps a kernel on another stream",
          q(db, "SELECT COUNT(*) > 0 FROM CUPTI_ACTIVITY_KIND_MEMCPY m, CUPTI_ACTIVITY_KIND_KERNEL k "
                "WHERE m.srcKind = 1 AND m.streamId != k.streamId AND m.start < k.\"end\" AND "
                "k.start < m.\"end\"")[0][0], 1)
    check("no driver rows from the recorder's own GPU queries",
          q(db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                "WHERE s.value IN ('cuDeviceGetAttribute', 'cuDeviceGetPCIBusId', 'cuDeviceGet')")[0][0], 0)
    gpu = q(db, "SELECT name, smCount, maxThreadsPerBlock, maxRegistersPerSm, maxShmemPerBlockOptin, "
                "maxWarpsPerSm, computeMajor, totalMemory, busLocation FROM TARGET_INFO_GPU")
    print("TARGET_INFO_GPU:", gpu)
    check("one TARGET_INFO_GPU row per GPU", len(gpu), gpus)
    check("GPU limits filled", bool(gpu) and all(v not in (None, 0, "") for v in gpu[0]), True)
    check("one process named train_loop", q(db, "SELECT name FROM PROCESSES"), [("train_loop",)])
    check("main thread named", q(db, "SELECT COUNT(*) > 0 FROM ThreadNames t JOIN StringIds s ON "
                                     "s.id = t.nameId WHERE s.value = 'train_loop'")[0][0], 1)


def stopped(path, end):
    db, tables = open_trace(path)
    m = meta(db)
    check("STROBE_CAPTURE_END", m.get("STROBE_CAPTURE_END"), end)
    check("STROBE_TRACE_INCOMPLETE", m.get("STROBE_TRACE_INCOMPLETE"), "0")
    check("kernels recorded", q(db, "SELECT COUNT(*) > 0 FROM CUPTI_ACTIVITY_KIND_KERNEL")[0][0], 1)
    print("skipped records:", m.get("STROBE_RECORDS_SKIPPED_ZERO_START"), "with start 0,",
          m.get("STROBE_RECORDS_SKIPPED_INVERTED"), "inverted")
    check_times(db, tables)


def fork(path):
    db, tables = open_trace(path)
    check("parent's ranges, none of the worker's",
          q(db, "SELECT text FROM NVTX_EVENTS ORDER BY start"), [("before fork",), ("after worker",)])
    check("STROBE_CAPTURE_END", meta(db).get("STROBE_CAPTURE_END"), "exit")


def multi(path, gpus):
    db, tables = open_trace(path)
    check_clean_metadata(meta(db), "exit")
    check_times(db, tables)
    check("kernel blocks per device (device d launches d + 1 blocks)",
          q(db, "SELECT deviceId, gridX FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY deviceId"),
          [(d, d + 1) for d in range(gpus)])
    check("contexts map to their kernels' device",
          q(db, "SELECT c.contextId, c.deviceId FROM TARGET_INFO_CUDA_CONTEXT_INFO c ORDER BY c.deviceId"),
          q(db, "SELECT contextId, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY deviceId"))
    check("one context sync per device, on that device",
          q(db, "SELECT y.deviceId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y JOIN "
                "CUPTI_ACTIVITY_KIND_KERNEL k ON k.contextId = y.contextId AND k.deviceId = y.deviceId "
                "WHERE y.syncType = 4 ORDER BY y.deviceId"), [(d,) for d in range(gpus)])
    check("STROBE_SYNCS_WITHOUT_DEVICE", meta(db).get("STROBE_SYNCS_WITHOUT_DEVICE"), "0")


mode, args = sys.argv[1], sys.argv[2:]
if mode == "train":
    train(args[0], int(args[1]), int(args[2]), int(args[3]))
elif mode == "stopped":
    stopped(args[0], args[1])
elif mode == "fork":
    fork(args[0])
elif mode == "multi":
    multi(args[0], int(args[1]))
else:
    sys.exit(f"device-check.py: unknown mode {mode!r}")
print(f"{len(failures)} check(s) failed" if failures else "all checks passed")
sys.exit(1 if failures else 0)
