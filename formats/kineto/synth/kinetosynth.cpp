// SPDX-License-Identifier: MIT
#include "formats/kineto/synth/kinetosynth.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <iterator>
#include <memory>
#include <tuple>
#include <zlib.h>

namespace strobe::kinetosynth {

namespace {

// splitmix64: fully specified, so every platform writes the same trace for a seed.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t n) { return next() % n; }
};

struct KernelKind {
    const char* name;
    std::array<int, 3> grid, block;
    int registers, shared;
    std::uint64_t meanNs;
};

const KernelKind kKernels[] = {
    {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
     "1>)",
     {1024, 1, 1},
     {128, 1, 1},
     16,
     0,
     3000},
    {"ampere_sgemm_128x64_tn", {16, 32, 1}, {128, 1, 1}, 122, 12544, 52000},
    {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>("
     "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
     {8, 16, 1},
     {128, 1, 1},
     230,
     73728,
     88000},
    {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
     "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
     "float*, float*, float*, float, float)",
     {512, 1, 1},
     {512, 1, 1},
     40,
     400,
     41000},
    {"void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 8, "
     "false, false>(float*, float const*, int, int, int, bool const*, int, bool)",
     {256, 1, 1},
     {32, 4, 1},
     38,
     0,
     9000},
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >"
     "(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned "
     "int, float, 4>)",
     {80, 1, 1},
     {32, 16, 1},
     32,
     16,
     7000},
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     {2, 1, 1},
     {512, 1, 1},
     96,
     0,
     420000},
};

const char* const kOps[][2] = {
    {"aten::linear", "aten::addmm"},
    {"aten::conv2d", "aten::cudnn_convolution"},
    {"aten::batch_norm", "aten::cudnn_batch_norm"},
    {"aten::softmax", "aten::_softmax"},
    {"aten::mean", "aten::sum"},
    {"aten::relu", "aten::clamp_min"},
    {"nccl:all_reduce", "record_param_comms"},
};

class Writer {
public:
    Writer(const std::string& path, bool gz) {
        m_gz = gz;
        if (m_gz)
            m_z = gzopen(path.c_str(), "wb6");
        else
            m_f = std::fopen(path.c_str(), "wb");
        m_buf.reserve(kFlush + 4096);
    }
    ~Writer() { close(); }
    bool ok() const { return (m_gz ? m_z != nullptr : m_f != nullptr) && !m_failed; }
    std::string& buf() { return m_buf; }
    void maybeFlush() {
        if (m_buf.size() >= kFlush)
            flush();
    }
    bool close() {
        flush();
        bool good = !m_failed;
        if (m_z)
            good = gzclose(m_z) == Z_OK && good;
        if (m_f)
            good = std::fclose(m_f) == 0 && good;
        m_z = nullptr;
        m_f = nullptr;
        return good;
    }
    std::uint64_t written() const { return m_written + m_buf.size(); }

private:
    static constexpr std::size_t kFlush = 4 << 20;
    void flush() {
        if (m_buf.empty() || !ok())
            return;
        m_written += m_buf.size();
        if (m_gz)
            m_failed = gzwrite(m_z, m_buf.data(), unsigned(m_buf.size())) != int(m_buf.size());
        else
            m_failed = std::fwrite(m_buf.data(), 1, m_buf.size(), m_f) != m_buf.size();
        m_buf.clear();
    }
    bool m_gz = false, m_failed = false;
    gzFile m_z = nullptr;
    std::FILE* m_f = nullptr;
    std::string m_buf;
    std::uint64_t m_written = 0;
};

void appendInt(std::string& s, std::int64_t v) {
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    s.append(tmp, r.ptr);
}

// Nanoseconds as Kineto writes them: microseconds with three decimals.
void appendUs(std::string& s, std::int64_t ns) {
    appendInt(s, ns / 1000);
    const int frac = int(ns % 1000);
    s += '.';
    s += char('0' + frac / 100);
    s += char('0' + frac / 10 % 10);
    s += char('0' + frac % 10);
}

class Generator {
public:
    Generator(Writer& w, const KinetoSynthOptions& o, KinetoSynthStats& st)
        : m_w(w)
        , m_o(o)
        , m_st(st)
        , m_rng{o.seed * 0x2545F4914F6CDD1Dull + 1} {}

    void run();

private:
    std::string& b() { return m_w.buf(); }
    void begin(const char* ph, const char* cat, std::string_view name, std::int64_t pid,
               std::int64_t tid, std::int64_t ts) {
        std::string& s = b();
        s += m_first ? "\n" : ",\n";
        m_first = false;
        s += R"(  {"ph": ")";
        s += ph;
        s += R"(", "cat": ")";
        s += cat;
        s += R"(", "name": ")";
        s += name;
        s += R"(", "pid": )";
        appendInt(s, pid);
        s += R"(, "tid": )";
        appendInt(s, tid);
        s += R"(, "ts": )";
        appendUs(s, ts);
        ++m_st.events;
    }
    void complete(const char* cat, std::string_view name, std::int64_t pid, std::int64_t tid,
                  std::int64_t ts, std::int64_t dur) {
        begin("X", cat, name, pid, tid, ts);
        b() += R"(, "dur": )";
        appendUs(b(), dur);
    }
    void flow(const char* ph, std::int64_t id, std::int64_t pid, std::int64_t tid,
              std::int64_t ts) {
        begin(ph, "ac2g", "ac2g", pid, tid, ts);
        b() += R"(, "id": )";
        appendInt(b(), id);
        b() += *ph == 'f' ? R"(, "bp": "e"})" : "}";
        ++m_st.flows;
    }
    void launch(std::int64_t tid, std::int64_t& t, std::int64_t external);
    void op(std::int64_t tid, std::int64_t& t, int depth);
    void metadata();

    Writer& m_w;
    const KinetoSynthOptions& m_o;
    KinetoSynthStats& m_st;
    Rng m_rng;
    bool m_first = true;
    static constexpr std::int64_t kPid = 3141592, kAutograd = 3141650;
    std::int64_t m_gpuFree[2] = {0, 0};
    std::int64_t m_correlation = 1000, m_external = 1;
};

void Generator::launch(std::int64_t tid, std::int64_t& t, std::int64_t external) {
    const std::uint64_t r = m_rng.below(100);
    const int stream = r < 8 ? 1 : 0; // NCCL and copies on their own stream
    const std::int64_t corr = ++m_correlation;
    const bool memcpy = r >= 94, memset = r >= 90 && r < 94;
    const char* api = memcpy ? "cudaMemcpyAsync" : memset ? "cudaMemsetAsync" : "cudaLaunchKernel";
    const std::int64_t apiDur = 2500 + std::int64_t(m_rng.below(6000));
    complete("cuda_runtime", api, kPid, tid, t, apiDur);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), external);
    b() += R"(, "cbid": 211, "correlation": )";
    appendInt(b(), corr);
    b() += "}}";
    ++m_st.runtimeCalls;
    flow("s", corr, kPid, tid, t);
    const std::int64_t streamId = stream ? 20 : 7;
    std::int64_t& free = m_gpuFree[stream];
    const std::int64_t gpuStart = std::max(t + 4000 + std::int64_t(m_rng.below(3000)), free);
    std::int64_t gpuDur = 0;
    if (memcpy || memset) {
        const std::int64_t bytes = 4096 << m_rng.below(12);
        gpuDur = 1200 + bytes / 20;
        complete(
            memcpy ? "gpu_memcpy" : "gpu_memset",
            memcpy ? (r & 1 ? "Memcpy HtoD (Pinned -> Device)" : "Memcpy DtoH (Device -> Pageable)")
                   : "Memset (Device)",
            0, streamId, gpuStart, gpuDur);
        b() += R"(, "args": {"External id": )";
        appendInt(b(), external);
        b() += R"(, "device": 0, "context": 1, "stream": )";
        appendInt(b(), streamId);
        b() += R"(, "correlation": )";
        appendInt(b(), corr);
        b() += R"(, "bytes": )";
        appendInt(b(), bytes);
        b() += "}}";
        ++(memcpy ? m_st.memcpys : m_st.memsets);
    } else {
        const KernelKind& k = kKernels[stream ? 6 : m_rng.below(6)];
        gpuDur = std::int64_t(k.meanNs / 2 + m_rng.below(k.meanNs));
        complete("kernel", k.name, 0, streamId, gpuStart, gpuDur);
        b() += R"(, "args": {"External id": )";
        appendInt(b(), external);
        b() += R"(, "queued": 0, "device": 0, "context": 1, "stream": )";
        appendInt(b(), streamId);
        b() += R"(, "correlation": )";
        appendInt(b(), corr);
        b() += R"(, "registers per thread": )";
        appendInt(b(), k.registers);
        b() += R"(, "shared memory": )";
        appendInt(b(), k.shared);
        b() += R"(, "blocks per SM": 4.740741, "warps per SM": 75.851852, "grid": [)";
        for (int d = 0; d < 3; ++d) {
            appendInt(b(), k.grid[d]);
            b() += d < 2 ? ", " : "], \"block\": [";
        }
        for (int d = 0; d < 3; ++d) {
            appendInt(b(), k.block[d]);
            b() += d < 2 ? ", " : "], \"est. achieved occupancy %\": 73}}";
        }
        ++m_st.kernels;
    }
    flow("f", corr, 0, streamId, gpuStart);
    free = gpuStart + gpuDur;
    t += apiDur + 300;
}

void Generator::op(std::int64_t tid, std::int64_t& t, int depth) {
    const auto& names = kOps[m_rng.below(std::size(kOps))];
    const std::int64_t start = t;
    const std::int64_t external = ++m_external;
    t += 1500 + std::int64_t(m_rng.below(3000));
    // The inner operator, then its launches; the outer one closes around them.
    const std::int64_t innerStart = t;
    const std::int64_t innerExternal = ++m_external;
    t += 800;
    const int launches = 1 + int(m_rng.below(2));
    for (int i = 0; i < launches; ++i)
        launch(tid, t, innerExternal);
    t += 600;
    complete("cpu_op", names[1], kPid, tid, innerStart, t - innerStart);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), innerExternal);
    b() += R"(, "Sequence number": 7, "Fwd thread id": 0}})";
    t += 900;
    complete("cpu_op", names[0], kPid, tid, start, t - start);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), external);
    b() += "}}";
    m_st.cpuOps += 2;
    if (m_o.withStack && depth == 0) {
        complete("python_function", "torch/nn/modules/module.py(1501): _call_impl", kPid, tid,
                 start - 200, t - start + 400);
        b() += R"(, "args": {"Python id": )";
        appendInt(b(), external);
        b() += "}}";
        ++m_st.pythonFunctions;
    }
    t += 400;
    m_w.maybeFlush();
}

void Generator::metadata() {
    for (const auto& [pid, tid, kind, value] :
         {std::tuple<std::int64_t, std::int64_t, const char*, const char*>{kPid, 0, "process_name",
                                                                           "python3.10"},
          {kPid, kPid, "thread_name", "thread 3141592 (pt_main_thread)"},
          {kPid, kAutograd, "thread_name", "thread 3141650 (pt_autograd_0)"},
          {0, 0, "process_name", "python3.10"}}) {
        std::string& s = b();
        s += m_first ? "\n" : ",\n";
        m_first = false;
        s += R"(  {"name": ")";
        s += kind;
        s += R"(", "ph": "M", "ts": 4458676000000.000, "pid": )";
        appendInt(s, pid);
        s += R"(, "tid": )";
        appendInt(s, tid);
        s += R"(, "args": {"name": ")";
        s += value;
        s += "\"}}";
        ++m_st.events;
    }
}

void Generator::run() {
    std::string& s = b();
    s += R"({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85100068864, "computeMajor": 8, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 108, "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912, "sharedMemPerMultiprocessor": 167936}
  ],
  "distributedInfo": {"backend": "nccl", "rank": )";
    appendInt(s, m_o.rank);
    s += R"(, "world_size": )";
    appendInt(s, m_o.worldSize);
    s += R"(},
  "traceEvents": [)";
    metadata();
    std::int64_t t = 4458676000000000; // monotonic ns, as current PyTorch writes
    m_gpuFree[0] = m_gpuFree[1] = t;
    std::uint64_t step = 0;
    while (m_st.events < m_o.events) {
        const std::int64_t stepStart = t;
        std::string stepName = "ProfilerStep#" + std::to_string(++step);
        // Forward on the main thread, backward on the autograd thread, inside annotations.
        const std::int64_t fwdStart = t += 2000;
        const int ops = 20 + int(m_rng.below(20));
        for (int i = 0; i < ops && m_st.events < m_o.events; ++i)
            op(kPid, t, 0);
        complete("user_annotation", "## forward ##", kPid, kPid, fwdStart, t - fwdStart);
        b() += R"(, "args": {"External id": 1}})";
        std::int64_t bt = t + 5000;
        const std::int64_t bwdStart = bt;
        for (int i = 0; i < ops && m_st.events < m_o.events; ++i)
            op(kAutograd, bt, 1);
        complete("user_annotation", "## backward ##", kPid, kAutograd, bwdStart, bt - bwdStart);
        b() += R"(, "args": {"External id": 2}})";
        t = bt + 2000;
        // The step ends waiting for the GPU.
        const std::int64_t drain = std::max(m_gpuFree[0], m_gpuFree[1]);
        complete("cuda_runtime", "cudaDeviceSynchronize", kPid, kPid, t,
                 std::max<std::int64_t>(drain - t, 0) + 3000);
        b() += R"(, "args": {"cbid": 165, "correlation": )";
        appendInt(b(), ++m_correlation);
        b() += "}}";
        ++m_st.runtimeCalls;
        complete("cuda_sync", "Device Synchronize", 0, 7, std::max(drain, t), 2000);
        b() += R"(, "args": {"device": 0, "context": 1, "stream": -1, "correlation": )";
        appendInt(b(), m_correlation);
        b() += "}}";
        ++m_st.syncs;
        t = std::max(drain, t) + 8000;
        complete("user_annotation", stepName, kPid, kPid, stepStart, t - stepStart);
        b() += "}";
        m_st.annotations += 3;
        t += 3000 + std::int64_t(m_rng.below(20000)); // the data loader
    }
    b() += "\n  ],\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": "
           "1711964646000000000\n}\n";
}

} // namespace

bool writeKinetoTrace(const std::string& path, const KinetoSynthOptions& options,
                      std::string* error, KinetoSynthStats* stats) {
    // Written beside the target and renamed at the end: the file appears only when complete.
    const std::string part = path + ".part";
    Writer w(part, path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0);
    if (!w.ok()) {
        if (error)
            *error = "cannot create " + path;
        return false;
    }
    KinetoSynthStats st;
    Generator(w, options, st).run();
    st.bytes = w.written();
    if (!w.close() || std::rename(part.c_str(), path.c_str()) != 0) {
        std::remove(part.c_str());
        if (error)
            *error = "cannot write " + path + " (disk full?)";
        return false;
    }
    if (stats)
        *stats = st;
    return true;
}

} // namespace strobe::kinetosynth
