// SPDX-License-Identifier: MIT
// The walk over the traceEvents array, on the parser thread: each event's members as views
// (RawEvent), handed in batches to the builder thread, which interprets them (kinetoevents.cpp)
// while the walk goes on. The walk reads no number and no string's bytes, and interns nothing:
// the document is far larger than the caches, and what the walk leaves out the builder does on
// the other core.
#include "formats/kineto/kinetoreaderimpl.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace strobe {

using namespace kineto;

namespace {

constexpr std::uint64_t kCheckEvery = 1 << 15;

// Stores the value `v` of member `f` as written.
[[gnu::always_inline]] inline void setScalar(RawEvent& e, Field f, od::value& v) {
    const std::string_view token = v.raw_json_token();
    const char c = token.empty() ? '\0' : token.front();
    const ScalarKind kind = c == '"'                             ? ScalarKind::RawString
                            : c == '-' || (c >= '0' && c <= '9') ? ScalarKind::Number
                                                                 : ScalarKind::Other;
    e.set(f, kind, token.data(), std::uint32_t(token.size()));
}

// Whether the mapping reads anything from this event's args, judged from the phase and category
// when they came before them (as Kineto writes them); when in doubt, yes. Without
// `operatorArgs` (a read that leaves the operators out) an operator's are not read either.
bool wantsArgs(const RawEvent& e, bool operatorArgs) {
    if (!e.has(Field::Ph))
        return true;
    if (rawIs(e, Field::Ph, "\"s\"") || rawIs(e, Field::Ph, "\"f\"") ||
        rawIs(e, Field::Ph, "\"t\""))
        return false; // flows
    return !(rawIs(e, Field::Ph, "\"X\"") &&
             (rawIs(e, Field::Cat, "\"python_function\"") ||
              rawIs(e, Field::Cat, "\"user_annotation\"") ||
              rawIs(e, Field::Cat, "\"gpu_user_annotation\"") ||
              (!operatorArgs && rawIs(e, Field::Cat, "\"cpu_op\""))));
}

std::optional<std::array<std::int32_t, 3>> dim3Of(od::value& v) {
    if (v.type() != od::json_type::array)
        return std::nullopt;
    std::array<std::int32_t, 3> d{1, 1, 1};
    std::size_t n = 0;
    bool valid = true;
    for (auto element : take(v.get_array())) {
        od::value x = take(std::move(element));
        const auto i = valid ? integerOf(x) : std::nullopt;
        if (!i || *i < 0 || *i > std::numeric_limits<std::int32_t>::max() || n >= 3)
            valid = false; // the rest of the array is still walked: the iteration needs it
        else
            d[n++] = std::int32_t(*i);
    }
    if (!valid || n == 0)
        return std::nullopt;
    return d;
}

// The args members the mapping uses, by their raw key (the bytes after the opening quote).
[[gnu::always_inline]] inline void readArgs(od::object args, RawEvent& e) {
    for (auto member : args) {
        if (const auto error = member.error())
            throw simdjson::simdjson_error(error);
        od::field& f = member.value_unsafe();
        const char* k = f.key().raw();
        od::value& v = f.value();
        std::optional<Field> field;
        switch (k[0]) {
        case 'n':
            if (keyIs(k, "name"))
                field = Field::ArgName;
            break;
        case 'g':
            if (keyIs(k, "grid"))
                e.grid = dim3Of(v);
            break;
        case 'b':
            if (keyIs(k, "block"))
                e.block = dim3Of(v);
            else if (keyIs(k, "bytes"))
                field = Field::Bytes;
            else if (keyIs(k, "blocks per SM"))
                field = Field::BlocksPerSm;
            break;
        case 'd':
            if (keyIs(k, "device"))
                field = Field::Device;
            else if (keyIs(k, "dtype"))
                field = Field::Dtype;
            break;
        case 'P':
            if (keyIs(k, "Process Group Name"))
                field = Field::ProcessGroupName;
            break;
        case 's':
            if (keyIs(k, "stream"))
                field = Field::Stream;
            else if (keyIs(k, "shared memory"))
                field = Field::SharedMemory;
            break;
        case 'c':
            if (keyIs(k, "correlation"))
                field = Field::Correlation;
            else if (keyIs(k, "context"))
                field = Field::Context;
            else if (keyIs(k, "cuda_sync_kind"))
                field = Field::ArgSyncKind;
            break;
        case 'E':
            if (keyIs(k, "External id"))
                field = Field::ExternalId;
            break;
        case 'e':
            if (keyIs(k, "external id"))
                field = Field::ExternalId;
            else if (keyIs(k, "est. achieved occupancy %"))
                field = Field::OccupancyPercent;
            break;
        case 'r':
            if (keyIs(k, "registers per thread"))
                field = Field::Registers;
            break;
        case 'w':
            if (keyIs(k, "warps per SM"))
                field = Field::WarpsPerSm;
            break;
        case 'D':
            if (keyIs(k, "Device Id"))
                field = Field::MemoryDeviceId;
            else if (keyIs(k, "Device Type"))
                field = Field::MemoryDeviceType;
            break;
        case 'I':
            if (keyIs(k, "In msg nelems")) {
                field = Field::InMsgNelems;
            } else if (keyIs(k, "Input Dims") || keyIs(k, "Input dims")) {
                if (v.type() == od::json_type::array) {
                    // The whole array as written; the builder thread reads it (inputshapes.h).
                    const std::string_view json = take(take(v.get_array()).raw_json());
                    e.set(Field::InputDims, ScalarKind::Array, json.data(),
                          std::uint32_t(json.size()));
                } else {
                    field = Field::InputDims; // present, and not an array: counted as malformed
                }
            }
            break;
        case 'T':
            if (keyIs(k, "Total Allocated"))
                field = Field::TotalAllocated;
            else if (keyIs(k, "Total Reserved"))
                field = Field::TotalReserved;
            break;
        default:
            break;
        }
        if (field)
            setScalar(e, *field, v);
    }
}

// (inlined into the walk: it runs for every event)
[[gnu::always_inline]] inline void readEvent(od::object obj, RawEvent& e, bool operatorArgs) {
    for (auto member : obj) {
        if (const auto error = member.error())
            throw simdjson::simdjson_error(error);
        od::field& f = member.value_unsafe();
        const char* k = f.key().raw();
        od::value& v = f.value();
        std::optional<Field> field;
        switch (k[0]) {
        case 'p':
            if (keyIs(k, "ph"))
                field = Field::Ph;
            else if (keyIs(k, "pid"))
                field = Field::Pid;
            break;
        case 't':
            if (keyIs(k, "ts"))
                field = Field::Ts;
            else if (keyIs(k, "tid"))
                field = Field::Tid;
            break;
        case 'd':
            if (keyIs(k, "dur"))
                field = Field::Dur;
            break;
        case 'c':
            if (keyIs(k, "cat"))
                field = Field::Cat;
            break;
        case 'n':
            if (keyIs(k, "name"))
                field = Field::Name;
            break;
        case 'i':
            if (keyIs(k, "id"))
                field = Field::Id;
            break;
        case 's':
            if (keyIs(k, "s"))
                field = Field::Scope;
            break;
        case 'a':
            if (keyIs(k, "args") && wantsArgs(e, operatorArgs) && v.type() == od::json_type::object)
                readArgs(take(v.get_object()), e);
            break;
        default:
            break;
        }
        if (field)
            setScalar(e, *field, v);
    }
}

} // namespace

void kineto::readEventObject(od::object obj, RawEvent& e) {
    readEvent(obj, e, true);
}

bool KinetoJsonLoader::Impl::deferFlow(const RawEvent& e, std::uint64_t origin) {
    if (!isFlowPhase(plainPhase(e)) || flowsNeeded.load(std::memory_order_relaxed))
        return false;
    // A category with escapes may still spell a launch flow's: kept too, and decided later.
    if (isPlainLaunchFlow(e) || (((e.rawStrings >> unsigned(Field::Cat)) & 1u) &&
                                 e.text(Field::Cat).find('\\') != std::string_view::npos))
        deferredFlows.add(origin, e.begin, e.end);
    return true;
}

void KinetoJsonLoader::Impl::reserveStaging(std::uint64_t textBytes) {
    // The staging vectors from a guess of the event count (Kineto writes 200 to 400 bytes an
    // event; GPU operations, launch calls and each end of the flows are each a fifth or so of
    // them), sparing most of their regrowth: reserved and untouched memory is not resident.
    const auto guess = std::size_t(textBytes / 256 / 4);
    gpuOps.reserve(guess);
    apiCorrelationPid.reserve(guess);
    deferredFlows.reserve(2 * guess);
}

std::unique_ptr<EventPipe> KinetoJsonLoader::Impl::startBuilder() {
    // One thread asked for (LoadOptions::threads): the events are mapped on the parser thread,
    // a batch at a time.
    const auto consumer =
        options.threads <= 1 ? EventPipe::Consumer::Inline : EventPipe::Consumer::Thread;
    return std::make_unique<EventPipe>(
        kBatches,
        [this](EventBatch& batch) {
            if (batch.piece != eventPiece) {
                kernelKeys.clear(); // views into a piece whose buffer is read into again
                eventPiece = batch.piece;
            }
            eventOrigin = batch.origin;
            for (std::size_t i = 0; i < batch.size; ++i)
                handleEvent(batch.events[i]);
            batch.size = 0;
        },
        consumer);
}

void KinetoJsonLoader::Impl::walkElements(EventPipe& pipe, od::array events, const char* base,
                                          std::uint64_t origin, std::uint64_t piece,
                                          std::uint64_t textBytes, WalkMark& mark) {
    const bool operatorArgs = options.parts.testFlag(TracePart::CpuOps);
    for (auto element : events) {
        od::value v = take(std::move(element));
        ++eventsRead;
        if (v.type() != od::json_type::object) {
            ++parserMalformed;
            continue;
        }
        EventBatch* batch = &pipe.current();
        batch->origin = origin;
        batch->piece = piece;
        RawEvent& e = batch->events[batch->size];
        e.reset(base);
        const char* const objectBegin = take(v.current_location()); // its '{'
        readEvent(take(v.get_object()), e, operatorArgs);
        // (after the object: at the ',' or ']' that follows it)
        const char* const objectEnd = take(v.current_location());
        e.begin = std::uint32_t(objectBegin - base);
        e.end = std::uint32_t(objectEnd - base);
        if (eventsRead % kCheckEvery == 0) {
            checkCancel();
            // The position in the text is the progress of the parse, which is most of the load.
            const std::string_view ts = e.number(Field::Ts);
            if (!ts.empty() && ts.data() >= base && ts.data() < objectEnd)
                report(int(800.0 * double(origin + std::uint64_t(ts.data() - base)) /
                           double(std::max<std::uint64_t>(textBytes, 1))));
        }
        const bool deferred = deferFlow(e, origin);
        if (!deferred && ++batch->size == kBatchEvents)
            pipe.hand(); // from here `e` is the builder thread's
        mark = {std::size_t(objectEnd - base), eventsRead, parserMalformed, deferredFlows.size()};
    }
}

void KinetoJsonLoader::Impl::finishEvents(EventPipe& pipe, TextSource* source) {
    pipe.finish();
    kernelKeys = {}; // views into the document
    readDeferredFlows(source);
}

void KinetoJsonLoader::Impl::readEvents(od::array events) {
    if (placeholderEvents)
        return; // a split read's skeleton: the events were walked piece by piece
    reserveStaging(text.size);
    const std::unique_ptr<EventPipe> pipe = startBuilder();
    WalkMark mark;
    walkElements(*pipe, events, text.begin(), 0, 0, text.size, mark);
    finishEvents(*pipe, nullptr);
}

} // namespace strobe
