// SPDX-License-Identifier: MIT
// Mapping each event, as the parser thread read it (kinetoparse.cpp), to the model: on the
// builder thread.
#include "formats/kineto/inputshapes.h"
#include "formats/kineto/kinetonumber.h"
#include "formats/kineto/kinetoreaderimpl.h"

#include <QStringBuilder>
#include <algorithm>
#include <bit>
#include <cstring>

namespace strobe {

using namespace kineto;

namespace {

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
    // Most frequent first: the scan mostly stops at the first or second entry.
    static const std::pair<std::string_view, Category> kCategories[] = {
        {"cpu_op", Category::CpuOp},
        {"cuda_runtime", Category::Runtime},
        {"kernel", Category::Kernel},
        {"python_function", Category::PythonFunction},
        {"user_annotation", Category::UserAnnotation},
        {"gpu_memcpy", Category::Memcpy},
        {"gpu_memset", Category::Memset},
        {"cuda_driver", Category::Driver},
        {"cuda_sync", Category::Sync},
        {"gpu_user_annotation", Category::GpuUserAnnotation},
        {"Operator", Category::CpuOp},
        {"Runtime", Category::Runtime},
        {"Kernel", Category::Kernel},
        {"Memcpy", Category::Memcpy},
        {"Memset", Category::Memset},
        {"Trace", Category::TraceSpan},
    };
    for (const auto& [name, c] : kCategories) {
        if (name == cat)
            return c;
    }
    return Category::Other;
}

} // namespace

void KinetoJsonLoader::Impl::clampTimes(TimeNs& start, TimeNs& end) {
    const TimeNs s = clampTime(start), e = clampTime(end);
    clampedTimes += s != start || e != end;
    start = s;
    end = e;
}

StringId KinetoJsonLoader::Impl::internName(std::string_view s) {
    const std::string_view kept = cutName(s);
    longNames += kept.size() < s.size();
    return builder.intern(kept);
}

StringId KinetoJsonLoader::Impl::inputShapesOf(const RawEvent& e) {
    if (!e.has(Field::InputDims))
        return kNoString;
    switch (normaliseInputShapes(e.array(Field::InputDims), inputShapes)) {
    case InputShapesResult::Ok:
        return builder.intern(inputShapes);
    case InputShapesResult::Malformed:
        ++malformedInputDims;
        break;
    case InputShapesResult::TooLong:
        ++longInputDims;
        break;
    }
    return kNoString;
}

namespace {

// Whether `s`, a string in the document, holds a backslash. Short strings ("X", "cpu_op",
// "3141592": most of them) are tested eight bytes at a time, which beats a call to memchr; the
// document's padding keeps the reads past the string's end in bounds.
bool hasBackslash(std::string_view s) {
    if (std::endian::native != std::endian::little || s.size() > 64)
        return std::memchr(s.data(), '\\', s.size()) != nullptr;
    constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    for (std::size_t i = 0; i < s.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, s.data() + i, 8);
        if (const std::size_t left = s.size() - i; left < 8)
            word &= (std::uint64_t(1) << (8 * left)) - 1; // bytes past the end read as 0
        const std::uint64_t x = word ^ (kOnes * '\\');    // a zero byte where a backslash was
        if ((x - kOnes) & ~x & kHigh)
            return true;
    }
    return false;
}

// A time member in nanoseconds, into `out`; false when absent or not a number. Beyond int64 it
// saturates: the caller clamps it to the model's range (clampTimes).
bool timeOf(const RawEvent& e, Field f, TimeNs& out) {
    const std::string_view text = e.number(f);
    return !text.empty() && parseSaturatedMicroseconds(text, out);
}

// Counts one skipped event under `kind` (its first 64 bytes: the warning shows fewer);
// allocates only for a kind not seen before.
void countSkipped(std::map<std::string, std::uint64_t, std::less<>>& counts,
                  std::string_view kind) {
    kind = cutName(kind, 64);
    if (auto it = counts.find(kind); it != counts.end())
        ++it->second;
    else
        counts.emplace(std::string(kind), 1);
}

} // namespace

void KinetoJsonLoader::Impl::resolveStrings(RawEvent& e, std::uint32_t fields) {
    const std::uint32_t todo = e.rawStrings & fields;
    e.rawStrings &= ~todo;
    for (std::uint32_t bits = todo; bits != 0; bits &= bits - 1) {
        const auto f = Field(std::countr_zero(bits));
        // The token runs from the opening quote to the next structural character: the string
        // and the blanks after it (stage 1 puts no structural inside a string).
        std::string_view token = e.text(f);
        while (token.size() > 1 && isBlank(token.back()))
            token.remove_suffix(1);
        if (token.size() >= 2 && token.back() == '"') {
            const std::string_view inner = token.substr(1, token.size() - 2);
            if (!hasBackslash(inner)) {
                e.resolve(f, inner);
                continue;
            }
        }
        // Escapes (rare): the literal is a JSON document of its own, unescaped by the library.
        if (!unescaper)
            unescaper = std::make_unique<od::parser>();
        const simdjson::padded_string literal(token);
        std::string_view value;
        od::document doc;
        simdjson::error_code error = unescaper->iterate(literal).get(doc);
        if (!error)
            error = doc.get_string().get(value);
        if (error)
            fail(QStringLiteral("is not valid JSON: ") % simdjsonProblem(error));
        std::string& copy = unescaped[std::size_t(f)];
        copy.assign(value);
        e.resolve(f, {}, &copy);
    }
}

void KinetoJsonLoader::Impl::handleEvent(RawEvent& e) {
    if (isFlowPhase(plainPhase(e)))
        return handleFlow(e); // resolves what it reads, when it reads it
    resolveStrings(e);
    const std::string_view ph = e.string(Field::Ph);
    if (ph.size() != 1) {
        ++malformed;
        return;
    }
    switch (ph[0]) {
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
        countSkipped(skippedPhases, ph);
        break;
    }
}

void KinetoJsonLoader::Impl::handleComplete(const RawEvent& e) {
    const std::string_view catName = e.string(Field::Cat);
    const Category cat = categoryOf(catName);
    if (cat == Category::TraceSpan)
        return; // the profiler's own span: its bounds, not a lane
    if (cat == Category::Other) {
        countSkipped(skippedCategories, catName.empty() ? "(no category)" : catName);
        return;
    }
    TimeNs start = 0, dur = 0;
    if (!timeOf(e, Field::Ts, start)) {
        ++malformed;
        return;
    }
    if (e.has(Field::Dur)) {
        const std::string_view d = e.number(Field::Dur);
        if (d.empty() || !parseSaturatedMicroseconds(d, dur)) {
            ++malformed;
            return;
        }
    } else {
        ++missingDurations;
    }
    if (dur < 0) {
        ++negativeDurations;
        dur = 0;
    }
    TimeNs end = saturatingAdd(start, dur);
    clampTimes(start, end);
    const std::string_view nameText = e.string(Field::Name);
    switch (cat) {
    case Category::GpuUserAnnotation:
        ++gpuUserAnnotations; // Strobe projects user annotations itself (docs/KINETO.md)
        return;
    case Category::Kernel:
        return stageGpuOp(e, GpuOpKind::Kernel, start, end, nameText);
    case Category::Memcpy:
        return stageGpuOp(e, GpuOpKind::Memcpy, start, end, nameText);
    case Category::Memset:
        return stageGpuOp(e, GpuOpKind::Memset, start, end, nameText);
    case Category::Sync:
        return stageGpuOp(e, GpuOpKind::Sync, start, end, nameText);
    default:
        break;
    }
    // CPU side: the OS process and thread.
    std::int64_t pidNumber = 0, tidNumber = 0;
    if (!e.integer(Field::Pid, pidNumber) || !e.integer(Field::Tid, tidNumber)) {
        ++malformed;
        return;
    }
    const std::uint32_t pid = wrap32(pidNumber), tid = wrap32(tidNumber);
    if (pid != lastCpuPid) {
        cpuPids.insert(pid);
        lastCpuPid = pid;
    }
    // A read without the operators keeps the steps' (ProfilerStep#N), checked and counted as
    // any other event up to here, so that its warnings are the whole read's.
    if ((cat == Category::CpuOp || cat == Category::PythonFunction) &&
        !options.parts.testFlag(TracePart::CpuOps) &&
        !(cat == Category::CpuOp && nameText.starts_with("ProfilerStep#"))) {
        longNames += cutName(nameText).size() < nameText.size();
        return;
    }
    const StringId name = internName(nameText);
    switch (cat) {
    case Category::CpuOp:
    case Category::PythonFunction: {
        CpuOpRecord rec;
        if (std::int64_t externalId = 0; e.integer(Field::ExternalId, externalId))
            rec.externalId = wrap32(externalId);
        if (cat == Category::CpuOp)
            rec.inputShapes = inputShapesOf(e);
        const bool python = cat == Category::PythonFunction;
        builder.addCpuOp(python ? LaneKind::Python : LaneKind::CpuOps, pid, tid, start, end, name,
                         rec);
        ++(python ? builder.counts().pythonFunctions : builder.counts().cpuOps);
        break;
    }
    case Category::UserAnnotation:
        builder.addNvtx(pid, tid, kNoString, start, end, name, NvtxRecord{}, std::nullopt);
        ++builder.counts().nvtxRanges;
        break;
    case Category::Runtime:
    case Category::Driver: {
        const std::uint8_t eventClass = cat == Category::Driver ? 1 : 0;
        ++builder.counts().cudaApiCalls;
        std::int64_t correlation = 0;
        if (!e.integer(Field::Correlation, correlation)) {
            uncorrelatedApiCalls.push_back({pid, tid, start, end, name, eventClass});
            needFlows();
            break;
        }
        ApiCallRecord rec;
        rec.correlationId = wrap32(correlation);
        rec.eventClass = eventClass;
        builder.addApiCall(pid, tid, start, end, name, rec);
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
    const JsonId pidId = idOf(e, Field::Pid);
    if (e.string(Field::Scope) == "g" || (pidId.present && !pidId.hasNumber))
        return;
    TimeNs ts = 0;
    std::int64_t tidNumber = 0;
    if (!timeOf(e, Field::Ts, ts) || !pidId.hasNumber || !e.integer(Field::Tid, tidNumber)) {
        ++malformed;
        return;
    }
    TimeNs end = ts;
    clampTimes(ts, end);
    const std::uint32_t pid = wrap32(pidId.number), tid = wrap32(tidNumber);
    const std::string_view name = e.string(Field::Name);
    // The caching allocator's totals after an allocation or free on a GPU (Device Type 1):
    // the GPU's memory counter. Still a mark too, as every thread instant is.
    if (name == "[memory]") {
        const auto deviceType = e.integer(Field::MemoryDeviceType);
        const auto deviceId = e.integer(Field::MemoryDeviceId);
        const auto allocated = e.integer(Field::TotalAllocated);
        if (deviceType == 1 && deviceId && *deviceId >= 0 && allocated && *allocated >= 0 &&
            options.parts.testFlag(TracePart::GpuMemory)) {
            GpuMemorySample sample{ts, std::uint64_t(*allocated), std::nullopt};
            if (const auto reserved = e.integer(Field::TotalReserved); reserved && *reserved >= 0)
                sample.reserved = std::uint64_t(*reserved);
            builder.addGpuMemorySample(wrap32(*deviceId), sample);
        }
    }
    NvtxRecord rec;
    rec.style = NvtxStyle::Mark;
    builder.addNvtx(pid, tid, kNoString, ts, ts, internName(name), rec, std::nullopt);
    ++builder.counts().nvtxMarks;
}

void KinetoJsonLoader::Impl::handleMetadata(const RawEvent& e) {
    std::int64_t pidNumber = 0;
    const std::string_view value = e.string(Field::ArgName);
    if (!e.integer(Field::Pid, pidNumber) || value.empty())
        return;
    const std::uint32_t pid = wrap32(pidNumber);
    const std::string_view name = e.string(Field::Name);
    if (name == "process_name") {
        builder.setProcessName(pid, internName(value));
    } else if (name == "thread_name") {
        if (std::int64_t tid = 0; e.integer(Field::Tid, tid))
            builder.setThreadName(pid, wrap32(tid), internName(value));
    }
}

void KinetoJsonLoader::Impl::handleFlow(RawEvent& e) {
    if (!isPlainLaunchFlow(e)) {
        resolveStrings(e, 1u << unsigned(Field::Cat)); // written with escapes, or another one
        const std::string_view cat = e.string(Field::Cat);
        if (cat != "ac2g" && cat != "async" && cat != "async_cpu_to_gpu")
            return;
    }
    if (!flowsNeeded.load(std::memory_order_relaxed)) {
        builderDeferredFlows.add(eventOrigin, e.begin, e.end);
        return;
    }
    resolveStrings(e);
    addFlow(e);
}

void KinetoJsonLoader::Impl::needFlows() {
    // Written once: the parser thread reads it for every flow.
    if (!flowsNeeded.load(std::memory_order_relaxed))
        flowsNeeded.store(true, std::memory_order_relaxed); // the parser thread hands flows on
}

void KinetoJsonLoader::Impl::readDeferredFlows(TextSource* source) {
    if (flowsNeeded.load(std::memory_order_relaxed)) {
        od::parser parser;
        RawEvent e;
        // A split read's text is no longer in memory: the kept flows are read again from the
        // source, a window of it at a time (they are in the text's order, each list).
        std::vector<char> window;
        std::uint64_t windowBegin = 0, windowEnd = 0;
        for (const KeptExtents* kept : {&deferredFlows, &builderDeferredFlows}) {
            kept->forEach([&](std::uint64_t begin, std::uint64_t end) {
                const char* base = text.begin();
                std::uint64_t origin = 0;
                std::size_t capacity = text.capacity;
                if (source) {
                    if (begin < windowBegin || end > windowEnd) {
                        constexpr std::uint64_t kWindow = std::uint64_t(1) << 20;
                        windowBegin = begin;
                        windowEnd = std::min(source->size(), std::max(end, begin + kWindow));
                        window.assign(std::size_t(windowEnd - windowBegin) +
                                          simdjson::SIMDJSON_PADDING,
                                      '\0');
                        if (const QString problem = source->read(
                                windowBegin, window.data(), std::size_t(windowEnd - windowBegin));
                            !problem.isEmpty())
                            fail(problem);
                    }
                    base = window.data();
                    origin = windowBegin;
                    capacity = window.size();
                }
                const auto at = std::size_t(begin - origin), size = std::size_t(end - begin);
                e.reset(base);
                e.begin = std::uint32_t(at);
                e.end = std::uint32_t(at + size);
                eventOrigin = origin;
                od::document doc = take(parser.iterate(base + at, size, capacity - at));
                readEventObject(take(doc.get_object()), e);
                handleFlow(e);
            });
        }
        // Kept and handed-on flows interleave: back to the document's order, which decides
        // between flows of one thread and time.
        auto byPlace = [](const FlowPoint& a, const FlowPoint& b) { return a.at < b.at; };
        std::sort(flowStarts.begin(), flowStarts.end(), byPlace);
        std::sort(flowEnds.begin(), flowEnds.end(), byPlace);
    }
    deferredFlows = {};
    builderDeferredFlows = {};
}

void KinetoJsonLoader::Impl::addFlow(const RawEvent& e) {
    TimeNs ts = 0;
    std::int64_t id = 0, pid = 0;
    const bool hasTs = timeOf(e, Field::Ts, ts), hasId = e.integer(Field::Id, id);
    const char ph = e.string(Field::Ph)[0];
    if (!hasTs || !hasId || !e.integer(Field::Pid, pid) || ph == 't') {
        if (!hasTs || !hasId)
            ++malformed;
        return;
    }
    // GPU ends carry "stream 7" tids in old traces: key them by the stream number.
    std::int64_t tid = 0;
    if (!e.integer(Field::Tid, tid)) {
        const std::string_view text = e.string(Field::Tid);
        if (text.substr(0, 7) != "stream " || !parseInteger(text.substr(7), tid))
            tid = 0;
    }
    FlowPoint p{std::uint64_t(id), wrap32(pid), wrap32(tid), ts, eventOrigin + e.begin};
    (ph == 's' ? flowStarts : flowEnds).push_back(p);
}

} // namespace strobe
