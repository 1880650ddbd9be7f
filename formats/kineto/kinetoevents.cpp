// SPDX-License-Identifier: MIT
// Reading the traceEvents array one event at a time, and mapping each to the model.
#include "formats/kineto/kinetonumber.h"
#include "formats/kineto/kinetoreaderimpl.h"

#include <cstring>

namespace strobe {

using namespace kineto;

namespace {

constexpr std::size_t kMaxNameBytes = 64 * 1024;
constexpr std::uint64_t kCheckEvery = 1 << 15;

// A member name as written (no escapes, at most 40 bytes: every name the mapping knows);
// empty for anything else, which is then skipped.
std::string_view rawKey(od::raw_json_string key) {
    const char* p = key.raw();
    for (std::size_t n = 0; n < 40; ++n) {
        if (p[n] == '"')
            return {p, n};
        if (p[n] == '\\')
            return {};
    }
    return {};
}

od::field fieldOf(simdjson::simdjson_result<od::field> r) {
    od::field f;
    if (const auto err = std::move(r).get(f))
        throw simdjson::simdjson_error(err);
    return f;
}

// A string value; its bytes in the document itself when it has no escapes (the usual case,
// sparing the copy into the parser's buffer), else unescaped by simdjson.
std::string_view stringOr(od::value& v) {
    const std::string_view token = v.raw_json_token();
    if (token.empty() || token.front() != '"')
        return {};
    const std::size_t close = token.find('"', 1);
    if (close != std::string_view::npos && token.find('\\', 1) > close) {
        std::string_view rest = token.substr(close + 1);
        while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\n' ||
                                 rest.front() == '\r' || rest.front() == '\t'))
            rest.remove_prefix(1);
        if (rest.empty())
            return token.substr(1, close - 1);
    }
    return v.get_string();
}

std::optional<std::int64_t> integerOf(od::value& v) {
    switch (v.type()) {
    case od::json_type::number:
        return exactInteger(v.raw_json_token());
    case od::json_type::string: {
        const std::string_view s = v.get_string();
        return s.empty() ? std::nullopt : exactInteger(s);
    }
    default:
        return std::nullopt;
    }
}

std::optional<float> floatOf(od::value& v) {
    if (v.type() != od::json_type::number)
        return std::nullopt;
    return float(double(v.get_double()));
}

std::optional<std::array<std::int32_t, 3>> dim3Of(od::value& v) {
    if (v.type() != od::json_type::array)
        return std::nullopt;
    std::array<std::int32_t, 3> d{1, 1, 1};
    std::size_t n = 0;
    od::array elements = v.get_array();
    for (auto element : elements) {
        od::value x = take(std::move(element));
        const auto i = integerOf(x);
        if (!i || *i < 0 || *i > std::numeric_limits<std::int32_t>::max() || n >= 3)
            return std::nullopt;
        d[n++] = std::int32_t(*i);
    }
    if (n == 0)
        return std::nullopt;
    return d;
}

JsonId idOf(od::value& v) {
    JsonId id;
    id.present = true;
    if (v.type() == od::json_type::string) {
        id.text = v.get_string();
        if (!id.text.empty())
            id.number = exactInteger(id.text);
    } else {
        id.number = integerOf(v);
    }
    return id;
}

bool is(std::string_view a, const char* b) {
    return a == std::string_view(b);
}

void readArgs(od::object args, EventArgs& a) {
    for (auto member : args) {
        od::field f = fieldOf(member);
        const std::string_view k = rawKey(f.key());
        od::value v = f.value();
        switch (k.size()) {
        case 4:
            if (is(k, "name"))
                a.name = stringOr(v);
            else if (is(k, "grid"))
                a.grid = dim3Of(v);
            break;
        case 5:
            if (is(k, "block"))
                a.block = dim3Of(v);
            else if (is(k, "bytes"))
                a.bytes = integerOf(v);
            break;
        case 6:
            if (is(k, "device"))
                a.device = integerOf(v);
            else if (is(k, "stream"))
                a.stream = integerOf(v);
            break;
        case 7:
            if (is(k, "context"))
                a.context = integerOf(v);
            break;
        case 11:
            if (is(k, "correlation"))
                a.correlation = integerOf(v);
            else if (is(k, "External id") || is(k, "external id"))
                a.externalId = integerOf(v);
            break;
        case 12:
            if (is(k, "warps per SM"))
                a.warpsPerSm = floatOf(v);
            break;
        case 13:
            if (is(k, "blocks per SM"))
                a.blocksPerSm = floatOf(v);
            else if (is(k, "shared memory"))
                a.sharedMemory = integerOf(v);
            break;
        case 14:
            if (is(k, "cuda_sync_kind"))
                a.syncKind = stringOr(v);
            break;
        case 20:
            if (is(k, "registers per thread"))
                a.registers = integerOf(v);
            break;
        case 25:
            if (is(k, "est. achieved occupancy %"))
                a.occupancyPercent = floatOf(v);
            break;
        default:
            break;
        }
    }
}

std::uint32_t wrap32(std::int64_t v) {
    return std::uint32_t(std::uint64_t(v));
}

enum class Category : std::uint8_t {
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Runtime,
    Driver,
    Kernel,
    Memcpy,
    Memset,
    GpuUserAnnotation,
    Sync,
    TraceSpan,
    Other,
};

Category categoryOf(std::string_view cat) {
    static const std::pair<std::string_view, Category> kCategories[] = {
        {"cpu_op", Category::CpuOp},
        {"Operator", Category::CpuOp},
        {"user_annotation", Category::UserAnnotation},
        {"python_function", Category::PythonFunction},
        {"cuda_runtime", Category::Runtime},
        {"Runtime", Category::Runtime},
        {"cuda_driver", Category::Driver},
        {"kernel", Category::Kernel},
        {"Kernel", Category::Kernel},
        {"gpu_memcpy", Category::Memcpy},
        {"Memcpy", Category::Memcpy},
        {"gpu_memset", Category::Memset},
        {"Memset", Category::Memset},
        {"gpu_user_annotation", Category::GpuUserAnnotation},
        {"cuda_sync", Category::Sync},
        {"Trace", Category::TraceSpan},
    };
    for (const auto& [name, c] : kCategories) {
        if (name == cat)
            return c;
    }
    return Category::Other;
}

} // namespace

StringId KinetoJsonLoader::Impl::internName(std::string_view s) {
    if (s.size() > kMaxNameBytes) {
        ++longNames;
        std::size_t n = kMaxNameBytes;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
            --n; // do not cut a UTF-8 sequence
        s = s.substr(0, n);
    }
    return builder.intern(s);
}

void KinetoJsonLoader::Impl::readEvents(od::array events) {
    RawEvent e;
    for (auto element : events) {
        od::value v = take(std::move(element));
        if (v.type() != od::json_type::object) {
            ++malformed;
            continue;
        }
        e = RawEvent{};
        readEvent(v.get_object(), e);
        handleEvent(e);
        if (++eventsRead % kCheckEvery == 0) {
            checkCancel();
            // The position in the text is the progress of the parse, which is most of the load.
            if (!e.ts.empty())
                report(int(800.0 * double(e.ts.data() - text.bytes.get()) / double(text.size)));
        }
    }
}

void KinetoJsonLoader::Impl::readEvent(od::object obj, RawEvent& e) {
    for (auto member : obj) {
        od::field f = fieldOf(member);
        const std::string_view k = rawKey(f.key());
        od::value v = f.value();
        switch (k.size()) {
        case 1:
            if (k[0] == 's')
                e.scope = stringOr(v);
            break;
        case 2:
            if (is(k, "ph"))
                e.ph = stringOr(v);
            else if (is(k, "ts")) {
                if (v.type() == od::json_type::number)
                    e.ts = v.raw_json_token();
                else
                    e.tsWrongType = true;
            } else if (is(k, "id"))
                e.id = idOf(v);
            else if (is(k, "bp"))
                e.bp = stringOr(v);
            break;
        case 3:
            if (is(k, "cat"))
                e.cat = stringOr(v);
            else if (is(k, "pid"))
                e.pid = idOf(v);
            else if (is(k, "tid"))
                e.tid = idOf(v);
            else if (is(k, "dur")) {
                if (v.type() == od::json_type::number)
                    e.dur = v.raw_json_token();
                else
                    e.durWrongType = true;
            }
            break;
        case 4:
            if (is(k, "name"))
                e.name = stringOr(v);
            else if (is(k, "args") && v.type() == od::json_type::object)
                readArgs(v.get_object(), e.args);
            break;
        default:
            break;
        }
    }
}

void KinetoJsonLoader::Impl::handleEvent(const RawEvent& e) {
    if (e.ph.size() != 1) {
        ++malformed;
        return;
    }
    switch (e.ph[0]) {
    case 'X':
        handleComplete(e);
        break;
    case 'i':
    case 'I':
        handleInstant(e);
        break;
    case 'M':
        handleMetadata(e);
        break;
    case 's':
    case 'f':
    case 't':
        handleFlow(e);
        break;
    default:
        ++skippedCategories[std::string("phase ") + std::string(e.ph)];
        break;
    }
}

void KinetoJsonLoader::Impl::handleComplete(const RawEvent& e) {
    const Category cat = categoryOf(e.cat);
    if (cat == Category::TraceSpan)
        return; // the profiler's own span: its bounds, not a lane
    if (cat == Category::Other) {
        ++skippedCategories[e.cat.empty() ? std::string("(no category)") : std::string(e.cat)];
        return;
    }
    const auto start = e.tsWrongType ? std::nullopt : microsecondsToNs(e.ts);
    if (!start) {
        ++malformed;
        return;
    }
    std::optional<std::int64_t> dur =
        e.durWrongType ? std::nullopt : std::optional<std::int64_t>(0);
    if (!e.dur.empty() && dur)
        dur = microsecondsToNs(e.dur);
    if (e.dur.empty() && !e.durWrongType)
        ++missingDurations;
    if (!dur) {
        ++malformed;
        return;
    }
    if (*dur < 0) {
        ++negativeDurations;
        dur = 0;
    }
    TimeNs end = 0;
    if (__builtin_add_overflow(*start, *dur, &end)) {
        ++malformed;
        return;
    }
    if (cat == Category::GpuUserAnnotation) {
        ++gpuUserAnnotations; // Strobe projects user annotations itself (docs/KINETO.md)
        return;
    }
    if (cat == Category::Kernel || cat == Category::Memcpy || cat == Category::Memset ||
        cat == Category::Sync) {
        const GpuOpKind kind = cat == Category::Kernel   ? GpuOpKind::Kernel
                               : cat == Category::Memcpy ? GpuOpKind::Memcpy
                               : cat == Category::Memset ? GpuOpKind::Memset
                                                         : GpuOpKind::Sync;
        stageGpuOp(e, kind, *start, end);
        return;
    }
    // CPU side: the OS process and thread.
    if (!e.pid.number || !e.tid.number) {
        ++malformed;
        return;
    }
    const std::uint32_t pid = wrap32(*e.pid.number), tid = wrap32(*e.tid.number);
    if (pid != lastCpuPid) {
        cpuPids.insert(pid);
        lastCpuPid = pid;
    }
    const StringId name = internName(e.name);
    switch (cat) {
    case Category::CpuOp:
    case Category::PythonFunction: {
        CpuOpRecord rec;
        if (e.args.externalId)
            rec.externalId = wrap32(*e.args.externalId);
        const bool python = cat == Category::PythonFunction;
        builder.addCpuOp(python ? LaneKind::Python : LaneKind::CpuOps, pid, tid, *start, end, name,
                         rec);
        ++(python ? builder.counts().pythonFunctions : builder.counts().cpuOps);
        break;
    }
    case Category::UserAnnotation:
        builder.addNvtx(pid, tid, kNoString, *start, end, name, NvtxRecord{}, std::nullopt);
        ++builder.counts().nvtxRanges;
        break;
    case Category::Runtime:
    case Category::Driver: {
        const std::uint8_t eventClass = cat == Category::Driver ? 1 : 0;
        ++builder.counts().cudaApiCalls;
        if (!e.args.correlation) {
            uncorrelatedApiCalls.push_back({pid, tid, *start, end, name, eventClass});
            break;
        }
        ApiCallRecord rec;
        rec.correlationId = wrap32(*e.args.correlation);
        rec.eventClass = eventClass;
        builder.addApiCall(pid, tid, *start, end, name, rec);
        apiCorrelationPid.emplace_back(rec.correlationId, pid);
        break;
    }
    default:
        break;
    }
}

void KinetoJsonLoader::Impl::handleInstant(const RawEvent& e) {
    // Global instants ("Iteration Start", "Record Window End") belong to no thread: the
    // profiler's bookkeeping, not the program's.
    if (e.scope == "g" || (e.pid.present && !e.pid.number))
        return;
    const auto ts = e.tsWrongType ? std::nullopt : microsecondsToNs(e.ts);
    if (!ts || !e.pid.number || !e.tid.number) {
        ++malformed;
        return;
    }
    const std::uint32_t pid = wrap32(*e.pid.number), tid = wrap32(*e.tid.number);
    NvtxRecord rec;
    rec.style = NvtxStyle::Mark;
    builder.addNvtx(pid, tid, kNoString, *ts, *ts, internName(e.name), rec, std::nullopt);
    ++builder.counts().nvtxMarks;
}

void KinetoJsonLoader::Impl::handleMetadata(const RawEvent& e) {
    if (!e.pid.number || e.args.name.empty())
        return;
    const std::uint32_t pid = wrap32(*e.pid.number);
    if (e.name == "process_name")
        builder.setProcessName(pid, internName(e.args.name));
    else if (e.name == "thread_name" && e.tid.number)
        builder.setThreadName(pid, wrap32(*e.tid.number), internName(e.args.name));
}

void KinetoJsonLoader::Impl::handleFlow(const RawEvent& e) {
    // Launch flows only (runtime call -> GPU operation); fwdbwd and others are not drawn.
    if (e.cat != "ac2g" && e.cat != "async" && e.cat != "async_cpu_to_gpu")
        return;
    const auto ts = e.tsWrongType ? std::nullopt : microsecondsToNs(e.ts);
    if (!ts || !e.id.number || !e.pid.number || e.ph == "t") {
        if (!ts || !e.id.number)
            ++malformed;
        return;
    }
    // GPU ends carry "stream 7" tids in old traces: key them by the stream number.
    std::optional<std::int64_t> tid = e.tid.number;
    if (!tid && e.tid.text.substr(0, 7) == "stream ")
        tid = exactInteger(e.tid.text.substr(7));
    FlowPoint p{std::uint64_t(*e.id.number), wrap32(*e.pid.number), wrap32(tid.value_or(0)), *ts};
    (e.ph == "s" ? flowStarts : flowEnds).push_back(p);
}

} // namespace strobe
