// SPDX-License-Identifier: MIT
#pragma once

// Internals of KinetoJsonLoader shared by its source files (kinetoreader.cpp: the document and
// its metadata; kinetoevents.cpp: one event at a time; kinetogpu.cpp: the GPU side, added once
// every process is known).

#include "formats/kineto/batchpipe.h"
#include "formats/kineto/jsonsplit.h"
#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/kinetojson.h"
#include "formats/kineto/kinetoreader.h"
#include "model/loadboundary.h"
#include "model/tracebuilder.h"

#include <QFileInfo>
#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strobe {

namespace kineto {

namespace od = simdjson::ondemand;

// The parts a Kineto read leaves out when LoadOptions::parts lacks them; it reads every other
// part whatever the options say. Without CpuOps it keeps the ProfilerStep#N operators (the
// steps), without their args.
inline constexpr TraceParts kKinetoOptionalParts =
    TracePart::CpuOps | TracePart::Syncs | TracePart::GpuMemory;

// How a scalar member was written, as the parser thread found it; interpreted later on the
// builder thread: the text of a number (as written, blanks after it included), a string as
// written (from its opening quote to the next structural character: the walk does not read a
// string's bytes), after resolveStrings() a string's characters, an array as written ('[' to its
// ']', for the builder thread to read), or anything else.
enum class ScalarKind : std::uint8_t { Number, RawString, String, Array, Other };

// The members an event's mapping uses, top level and in `args`; everything else is skipped
// unread.
enum class Field : std::uint8_t {
    Ph,
    Cat,
    Name,
    Scope, // "s" of instant events
    Ts,
    Dur,
    Pid,
    Tid,
    Id,
    ArgName,     // metadata events: args.name
    ArgSyncKind, // cuda_sync: args.cuda_sync_kind
    Device,
    Stream,
    Context,
    Correlation,
    ExternalId,
    Registers,
    SharedMemory,
    Bytes,
    BlocksPerSm,
    WarpsPerSm,
    OccupancyPercent,
    // [memory] instants: "Device Type" (1: CUDA), "Device Id", "Total Allocated/Reserved".
    MemoryDeviceType,
    MemoryDeviceId,
    TotalAllocated,
    TotalReserved,
    InputDims, // operators: args "Input Dims" ("Input dims" before PyTorch 1.10), an Array
    // NCCL kernels (PyTorch 2.x): the communicator and the message.
    ProcessGroupName, // "Process Group Name"
    InMsgNelems,      // "In msg nelems"
    Dtype,            // "dtype": "Float", "BFloat16"...
    Count
};

// One event's members as read by the parser thread, before interpretation. Reused from batch
// to batch: reset() clears the presence bits only, so a slot costs what its event writes. Each
// member is stored as its place in the document (eight bytes: the builder thread reads what the
// parser thread wrote, and the fewer cache lines cross between the cores the better), its kind
// in bit masks.
struct RawEvent {
    // `document`: where the offsets count from (the text the walk reads).
    void reset(const char* document) {
        base = document;
        present = rawStrings = strings = numbers = arrays = unescaped = 0;
        grid.reset();
        block.reset();
    }
    // Stores member `f`: `data` points into the document, except for Other (no text).
    void set(Field f, ScalarKind kind, const char* data, std::uint32_t size) {
        const std::uint32_t bit = 1u << unsigned(f);
        present |= bit;
        if (kind == ScalarKind::Other) {
            places[std::size_t(f)] = {0, 0};
            return;
        }
        places[std::size_t(f)] = {std::uint32_t(data - base), size};
        if (kind == ScalarKind::Number)
            numbers |= bit;
        else if (kind == ScalarKind::Array)
            arrays |= bit;
        else if (kind == ScalarKind::RawString)
            rawStrings |= bit;
        else
            strings |= bit;
    }
    // Member `f`, a RawString, resolved: `chars` (in the document) or, when `copy` is set, the
    // unescaped characters there (a buffer that lives until the next event).
    void resolve(Field f, std::string_view chars, const std::string* copy = nullptr) {
        const std::uint32_t bit = 1u << unsigned(f);
        rawStrings &= ~bit;
        strings |= bit;
        if (copy) {
            unescaped |= bit;
            copies[std::size_t(f)] = copy;
        } else {
            places[std::size_t(f)] = {std::uint32_t(chars.data() - base),
                                      std::uint32_t(chars.size())};
        }
    }
    bool has(Field f) const { return (present >> unsigned(f)) & 1u; }
    // The kind of a present member.
    ScalarKind kind(Field f) const {
        const std::uint32_t bit = 1u << unsigned(f);
        return numbers & bit      ? ScalarKind::Number
               : rawStrings & bit ? ScalarKind::RawString
               : strings & bit    ? ScalarKind::String
               : arrays & bit     ? ScalarKind::Array
                                  : ScalarKind::Other;
    }
    // The stored text of a present member (empty for Other).
    std::string_view text(Field f) const {
        if ((unescaped >> unsigned(f)) & 1u)
            return *copies[std::size_t(f)];
        const Slot s = places[std::size_t(f)];
        return {base + s.offset, s.size};
    }
    // True when the member's text lies in the document (not in an unescaping buffer).
    bool inDocument(Field f) const { return !((unescaped >> unsigned(f)) & 1u); }
    // The characters of a string member (once resolved); empty when absent or not a string.
    std::string_view string(Field f) const;
    // A number member's text; empty when absent or not a number.
    std::string_view number(Field f) const;
    // An array member's JSON text, as written (blanks after it included); empty when absent or
    // not an array.
    std::string_view array(Field f) const;
    // An integer written as a number or as a string of digits, into `out`; false otherwise.
    bool integer(Field f, std::int64_t& out) const;
    std::optional<std::int64_t> integer(Field f) const; // the same, for the colder paths
    // A number member as a float; nullopt when absent or not a number.
    std::optional<float> real(Field f) const;

    struct Slot {
        std::uint32_t offset, size;
    };
    const char* base = nullptr;
    // Bit f: member f present; still a RawString (resolveStrings clears); a resolved string; a
    // number; an array; unescaped into copies[f].
    std::uint32_t present = 0, rawStrings = 0, strings = 0, numbers = 0, arrays = 0, unescaped = 0;
    // Where the event's object is in the document ('{' to the token after its '}'), for reading
    // a flow event again if its link turns out to be needed.
    std::uint32_t begin = 0, end = 0;
    std::array<Slot, std::size_t(Field::Count)> places;
    std::optional<std::array<std::int32_t, 3>> grid, block; // read as arrays by the parser
    std::array<const std::string*, std::size_t(Field::Count)> copies;
};
static_assert(std::size_t(Field::Count) <= 32);

inline std::string_view RawEvent::string(Field f) const {
    return (strings >> unsigned(f)) & 1u ? text(f) : std::string_view();
}

inline std::string_view RawEvent::number(Field f) const {
    return (numbers >> unsigned(f)) & 1u ? text(f) : std::string_view();
}

inline std::string_view RawEvent::array(Field f) const {
    return (arrays >> unsigned(f)) & 1u ? text(f) : std::string_view();
}

inline bool RawEvent::integer(Field f, std::int64_t& out) const {
    if (!(((numbers | strings) >> unsigned(f)) & 1u))
        return false;
    const std::string_view t = text(f);
    return !t.empty() && parseInteger(t, out);
}

inline std::optional<std::int64_t> RawEvent::integer(Field f) const {
    std::int64_t v = 0;
    return integer(f, v) ? std::optional<std::int64_t>(v) : std::nullopt;
}

inline std::optional<float> RawEvent::real(Field f) const {
    double v = 0;
    return parseDecimal(number(f), v) ? std::optional<float>(float(v)) : std::nullopt;
}

// True when the string member `f` was written exactly as `quoted` (quotes included), blanks
// after it aside: the token runs to the next structural character.
template <std::size_t N> bool rawIs(const RawEvent& e, Field f, const char (&quoted)[N]) {
    if (!((e.rawStrings >> unsigned(f)) & 1u))
        return false;
    const std::string_view t = e.text(f);
    return t.size() >= N - 1 && std::memcmp(t.data(), quoted, N - 1) == 0;
}

// The phase of an event whose "ph" is written as one plain character ("X", "s"), read without
// resolving the string; '\0' for anything else, which then takes the general path.
inline char plainPhase(const RawEvent& e) {
    if (!((e.rawStrings >> unsigned(Field::Ph)) & 1u))
        return '\0';
    const std::string_view t = e.text(Field::Ph);
    if (t.size() < 3 || t[2] != '"')
        return '\0';
    const char c = t[1];
    return c == '\\' || c == '"' ? '\0' : c;
}

inline bool isFlowPhase(char c) {
    return c == 's' || c == 'f' || c == 't';
}

// Whether a flow event's category, still as written, is one of the launch flows' (runtime call
// -> GPU operation; fwdbwd and others are not drawn).
inline bool isPlainLaunchFlow(const RawEvent& e) {
    return rawIs(e, Field::Cat, "\"ac2g\"") || rawIs(e, Field::Cat, "\"async\"") ||
           rawIs(e, Field::Cat, "\"async_cpu_to_gpu\"");
}

// A pid, tid or flow id: JSON numbers, or strings ("25738", "stream 7", "Spans").
struct JsonId {
    bool present = false;
    bool hasNumber = false;  // the value is an integer or a string of digits
    std::int64_t number = 0; // when hasNumber
    std::string_view text;   // the string, when it was one
};

inline JsonId idOf(const RawEvent& e, Field f) {
    JsonId id;
    if (!e.has(f))
        return id;
    id.present = true;
    id.text = e.string(f);
    id.hasNumber = e.integer(f, id.number);
    return id;
}

enum class GpuOpKind : std::uint8_t { Kernel, Memcpy, Memset, Sync };

// A GPU operation read but not yet added: its process (the one that launched it) is known only
// once every CPU event has been seen.
struct PendingGpuOp {
    TimeNs start = 0, end = 0;
    StringId name = kNoString;
    std::uint32_t device = 0, context = 0, stream = 0;
    std::uint32_t jsonPid = 0, jsonTid = 0;
    std::optional<std::uint32_t> correlation;
    GpuOpKind kind = GpuOpKind::Kernel;
    std::uint32_t index = 0; // into configs, memcpys, memsets or syncs
    // A collective kernel's (KernelRecord::processGroup, messageBytes).
    StringId processGroup = kNoString;
    std::optional<std::uint64_t> messageBytes;
};

// What decides a kernel's configuration, as the document writes it: the key of the per-kernel
// lookup, much cheaper to hash and compare than the KernelConfig it stands for. Distinct texts
// of one value ("16", "16.0") give distinct keys of one configuration. The texts are views into
// the document: the keys live while the events stream.
struct KernelKey {
    // The args members of the key, in the order of `texts`.
    static constexpr std::array<Field, 5> kFields = {Field::Registers, Field::SharedMemory,
                                                     Field::BlocksPerSm, Field::WarpsPerSm,
                                                     Field::OccupancyPercent};
    StringId name = kNoString;
    std::array<std::int32_t, 3> grid{}, block{};
    std::uint8_t dims = 0;    // bit 0: grid recorded, bit 1: block recorded
    std::uint8_t present = 0; // bit i: kFields[i] recorded
    std::array<ScalarKind, 5> kinds{};
    std::array<std::string_view, 5> texts;
    bool operator==(const KernelKey&) const = default;
};

struct KernelKeyHash {
    std::size_t operator()(const KernelKey& k) const noexcept;
};

// A runtime call without args.correlation, resolved through its ac2g flow later.
struct PendingApiCall {
    std::uint32_t pid = 0, tid = 0;
    TimeNs start = 0, end = 0;
    StringId name = kNoString;
    std::uint8_t eventClass = 0;
};

struct FlowPoint {
    std::uint64_t id = 0;
    std::uint32_t pid = 0, tid = 0;
    TimeNs ts = 0;
    std::uint64_t at = 0; // where the event is in the text: flows are used in its order
};

// Flow objects kept by where they are in the text, [begin, end), in the order added: 32-bit
// offsets from an origin that changes only between the pieces of a split read (kinetosplit.cpp),
// so a kept flow costs eight bytes whatever the text's size.
class KeptExtents {
public:
    void reserve(std::size_t n) { m_extents.reserve(n); }
    void add(std::uint64_t origin, std::uint32_t begin, std::uint32_t end) {
        if (m_origins.empty() || m_origins.back().second != origin)
            m_origins.emplace_back(m_extents.size(), origin);
        m_extents.emplace_back(begin, end);
    }
    // Drops what was added after the first `n` (a piece read again).
    void truncate(std::size_t n) {
        m_extents.resize(std::min(n, m_extents.size()));
        while (!m_origins.empty() && m_origins.back().first >= m_extents.size())
            m_origins.pop_back();
    }
    std::size_t size() const { return m_extents.size(); }
    // Calls f(begin, end), text positions, for each extent in the order added.
    template <typename F> void forEach(F&& f) const {
        std::size_t next = 0;
        std::uint64_t origin = 0;
        for (std::size_t i = 0; i < m_extents.size(); ++i) {
            while (next < m_origins.size() && m_origins[next].first == i)
                origin = m_origins[next++].second;
            f(origin + m_extents[i].first, origin + m_extents[i].second);
        }
    }

private:
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_extents;
    std::vector<std::pair<std::size_t, std::uint64_t>> m_origins; // (first extent, origin)
};

// Events per batch and batches in flight between the parser and builder threads: a few MB,
// small enough to stay in the caches between the two threads, large enough that a hand-off is
// rare.
inline constexpr std::size_t kBatchEvents = 2048;
inline constexpr std::size_t kBatches = 4;

struct EventBatch {
    std::vector<RawEvent> events = std::vector<RawEvent>(kBatchEvents);
    std::size_t size = 0;
    // The text position of byte 0 of the buffer the events point into, and which buffer (a
    // piece of a split read; 0 for the whole document).
    std::uint64_t origin = 0, piece = 0;
};

using EventPipe = BatchPipe<EventBatch>;

// How far a walk over a piece got: the buffer offset of what follows its last whole object (the
// ',' or ']' after it), and the counts then, for reading the rest again after a failure.
struct WalkMark {
    std::size_t after = 0;
    std::uint64_t eventsRead = 0, parserMalformed = 0;
    std::size_t deferred = 0;
};

// The walk over one event object (kinetoparse.cpp): its members into `e`, reset before.
void readEventObject(od::object obj, RawEvent& e);

// A plain file to read in pieces (kinetosplit.cpp): past one document's 4 GiB, or any when
// `always`. Null for anything else (gzip, a pipe, a file that cannot be opened), which the
// whole-document reader reads or refuses with its own sentence.
std::unique_ptr<TextSource> openForSplit(const QString& path, bool always);

// The end of a sentence saying what simdjson found wrong ("it is not valid UTF-8").
QString simdjsonProblem(simdjson::error_code code);

} // namespace kineto

struct KinetoJsonLoader::Impl {
    Impl(const QString& p, const LoadOptions& o)
        : path(p)
        , options(o)
        , builder(p) {}

    QString path;
    LoadOptions options;
    TraceBuilder builder;
    std::optional<QByteArray> content; // read already (a pipe), else the file at `path`
    kineto::JsonText text;

    // Warnings, counted while reading (on the builder thread while events stream, except
    // parserMalformed: the array elements that are not objects, counted by the parser thread).
    std::uint64_t malformed = 0, negativeDurations = 0, longNames = 0, missingDurations = 0;
    // Operators whose Input Dims are not a list of lists of integers, or longer than
    // kineto::kMaxInputShapesBytes: their input shapes are left out.
    std::uint64_t malformedInputDims = 0, longInputDims = 0;
    std::string inputShapes; // the current operator's, normalised (reused)
    std::uint64_t parserMalformed = 0;
    // Events with a time beyond the model's range (|t| > kMaxTime), clamped into it: counted in
    // the builder's own time-out-of-range warning, which the reader adds to.
    std::uint64_t clampedTimes = 0;
    // category (or phase) -> count; looked up by view, so a skipped event allocates nothing
    std::map<std::string, std::uint64_t, std::less<>> skippedCategories, skippedPhases;
    std::uint64_t gpuUserAnnotations = 0;

    std::set<std::uint32_t> cpuPids;
    std::optional<std::uint32_t> lastCpuPid; // spares the set lookup for the usual single pid
    std::vector<std::pair<std::uint32_t, std::uint32_t>> apiCorrelationPid; // (correlation, pid)
    std::vector<kineto::PendingGpuOp> gpuOps;
    std::vector<KernelConfig> configs;
    std::unordered_map<KernelConfig, std::uint32_t, KernelConfigHash> configIndex;
    std::unordered_map<kineto::KernelKey, std::uint32_t, kineto::KernelKeyHash> kernelKeys;
    std::unordered_map<StringId, StringId> shortNames; // demangled -> derived short name
    std::vector<MemcpyRecord> memcpys;
    std::vector<MemsetRecord> memsets;
    std::vector<SyncRecord> syncs;
    std::vector<kineto::PendingApiCall> uncorrelatedApiCalls;
    std::vector<kineto::FlowPoint> flowStarts, flowEnds;
    // Launch flows are read only once some launch or GPU operation lacks args.correlation
    // (none in current traces, where a third of the events are flows). Until the builder thread
    // finds one (flowsNeeded, set by the builder thread, read by both), the parser thread keeps
    // each flow as where its object is in the document and hands it over no further; the
    // builder thread does the same with the rare flow whose phase is written with escapes. Once
    // the walk is done, the kept flows are read again if they are needed (readDeferredFlows).
    std::atomic<bool> flowsNeeded{false};
    kineto::KeptExtents deferredFlows;        // by the parser thread
    kineto::KeptExtents builderDeferredFlows; // by the builder thread
    std::uint64_t eventsRead = 0;             // array elements, on the parser thread
    // The text position of byte 0 of the buffer the builder thread's current events point into
    // (0 but in a split read), and the piece they came from: its kernelKeys (views into the
    // piece) are dropped when the piece changes.
    std::uint64_t eventOrigin = 0, eventPiece = 0;
    // A split read (kinetosplit.cpp): the traceEvents array in pieces of about this many bytes,
    // each parsed as a document of its own; 0: only for text past one document's 4 GiB.
    std::size_t splitPieceBytes = 0;
    // The document level of a split read: its skeletons hold an empty traceEvents array, which
    // readDocument then takes for the one the pieces were walked from.
    bool placeholderEvents = false;
    // The builder thread's unescaping of the rare string with escapes: a parser of its own and
    // the current event's unescaped strings, by field.
    std::unique_ptr<kineto::od::parser> unescaper;
    std::array<std::string, std::size_t(kineto::Field::Count)> unescaped;

    QString fileName() const { return QFileInfo(path).fileName(); }
    QString problem(const QString& what) const; // "'name' what."
    [[noreturn]] void fail(const QString& what) const;
    void checkCancel() const;
    void report(int perMille) const {
        if (options.progress)
            options.progress(perMille);
    }

    // The parser thread (the caller's): the document, its metadata and the walk over events.
    void readDocument(kineto::od::document& doc);   // kinetoreader.cpp
    void readDeviceProperties(kineto::od::value v); // kinetoreader.cpp
    void readDistributedInfo(kineto::od::value v);  // kinetoreader.cpp
    void readEvents(kineto::od::array events);      // kinetoparse.cpp
    // The parts of readEvents that a split read shares (kinetoparse.cpp): the staging reserved
    // for a text of `textBytes`; the builder thread; the walk over the elements of `events`, an
    // array in the buffer at `base` whose byte 0 is text position `origin`; the end of the
    // events, once every element was walked (flows kept by place read from `source`, or from
    // `text` when null).
    void reserveStaging(std::uint64_t textBytes);
    std::unique_ptr<kineto::EventPipe> startBuilder();
    void walkElements(kineto::EventPipe& pipe, kineto::od::array events, const char* base,
                      std::uint64_t origin, std::uint64_t piece, std::uint64_t textBytes,
                      kineto::WalkMark& mark);
    void finishEvents(kineto::EventPipe& pipe, kineto::TextSource* source);
    // The split read of a text past 4 GiB, or of any when splitPieceBytes is set
    // (kinetosplit.cpp): the members around the array, parsed as documents of their own
    // (`prefix` + text [from, to) + `suffix`), and the pieces of the array from `first`, its
    // first element's place; returns where the array closes.
    void readSplit(kineto::TextSource& source);
    void readAround(kineto::TextSource& source, std::string_view prefix, std::uint64_t from,
                    std::uint64_t to, std::string_view suffix);
    std::uint64_t readPieces(kineto::TextSource& source, std::uint64_t first);
    // The builder thread: one event at a time, into the model (and the staging below).
    void handleEvent(kineto::RawEvent& e);                                // kinetoevents.cpp
    void resolveStrings(kineto::RawEvent& e, std::uint32_t fields = ~0u); // kinetoevents.cpp
    void handleComplete(const kineto::RawEvent& e);                       // kinetoevents.cpp
    void handleInstant(const kineto::RawEvent& e);                        // kinetoevents.cpp
    void handleMetadata(const kineto::RawEvent& e);                       // kinetoevents.cpp
    void handleFlow(kineto::RawEvent& e);                                 // kinetoevents.cpp
    void addFlow(const kineto::RawEvent& e);                              // kinetoevents.cpp
    void needFlows();                                                     // kinetoevents.cpp
    // The parser thread's part; kinetoparse.cpp. `origin`: as walkElements'.
    bool deferFlow(const kineto::RawEvent& e, std::uint64_t origin);
    void readDeferredFlows(kineto::TextSource* source); // after the walk; kinetoevents.cpp
    void stageGpuOp(const kineto::RawEvent& e, kineto::GpuOpKind kind, TimeNs start, TimeNs end,
                    std::string_view name);                               // kinetogpu.cpp
    std::uint32_t kernelConfig(const kineto::RawEvent& e, StringId name); // kinetogpu.cpp
    StringId internName(std::string_view s);                              // kinetoevents.cpp
    StringId inputShapesOf(const kineto::RawEvent& e);                    // kinetoevents.cpp
    void clampTimes(TimeNs& start, TimeNs& end); // into [kMinTime, kMaxTime]; kinetoevents.cpp
    // After the walk, on the parser thread.
    void addStagedEvents(); // kinetogpu.cpp
    void addWarnings();     // kinetoreader.cpp
    // The staged events and warnings added, the model finished; kinetoreader.cpp.
    std::unique_ptr<Trace> finishModel();
};

} // namespace strobe
