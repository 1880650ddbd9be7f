// SPDX-License-Identifier: MIT
// The document level of a Kineto trace: reading the text, the top-level members
// (traceEvents, deviceProperties, distributedInfo, schemaVersion) and the warnings.
#include "formats/kineto/inputshapes.h"
#include "formats/kineto/kinetonumber.h"
#include "formats/kineto/kinetoreaderimpl.h"
#include "formats/kineto/prefaulter.h"

#include <QStringBuilder>
#include <memory>
#include <thread>
#include <utility>

namespace strobe {

using namespace kineto;

namespace {

std::uint32_t u32(std::optional<std::int64_t> v) {
    return v && *v > 0 ? std::uint32_t(std::min<std::int64_t>(*v, 0xFFFFFFFF)) : 0;
}

} // namespace

namespace kineto {

QString simdjsonProblem(simdjson::error_code code) {
    // In Strobe's words: simdjson's own messages name its internals ("tape", "atom").
    switch (code) {
    case simdjson::UNCLOSED_STRING:
        return QStringLiteral("it ends inside a string (truncated?)");
    case simdjson::TAPE_ERROR:
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
        return QStringLiteral("it is truncated or its brackets do not match");
    case simdjson::STRING_ERROR:
        return QStringLiteral("it has a string with an invalid escape");
    case simdjson::UNESCAPED_CHARS:
        return QStringLiteral("it has a control character inside a string");
    case simdjson::UTF8_ERROR:
        return QStringLiteral("it is not valid UTF-8");
    case simdjson::DEPTH_ERROR:
        return QStringLiteral("it nests deeper than the parser allows");
    case simdjson::CAPACITY:
        return QStringLiteral("it is larger than one JSON document can be");
    case simdjson::MEMALLOC:
        return QStringLiteral("there is not enough memory to parse it");
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
        return QStringLiteral("it has a word that is not true, false or null");
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
        return QStringLiteral("it has a malformed number");
    case simdjson::EMPTY:
        return QStringLiteral("it holds no JSON value");
    case simdjson::TRAILING_CONTENT:
        return QStringLiteral("there is more text after the top-level value");
    case simdjson::INCORRECT_TYPE:
    case simdjson::SCALAR_DOCUMENT_AS_VALUE:
        return QStringLiteral("a value has another type than its place requires");
    default: // the parser's own state (out of order, out of bounds...): what the text led to
        return QStringLiteral("the parser could not make sense of it");
    }
}

} // namespace kineto

std::unique_ptr<Trace> KinetoJsonLoader::Impl::finishModel() {
    checkCancel();
    addStagedEvents();
    addWarnings();
    builder.metadata().loadedParts = kAllTraceParts & ~(kKinetoOptionalParts & ~options.parts);
    report(900);
    std::unique_ptr<Trace> trace = builder.finish(options.cancel);
    if (!trace)
        throw LoadCancelled{};
    report(1000);
    return trace;
}

QString KinetoJsonLoader::Impl::problem(const QString& what) const {
    return u'\'' % fileName() % QStringLiteral("' ") % what % u'.';
}

void KinetoJsonLoader::Impl::fail(const QString& what) const {
    throw LoadFailure{problem(what)};
}

void KinetoJsonLoader::Impl::checkCancel() const {
    throwIfCancelled(options.cancel);
}

void KinetoJsonLoader::Impl::readDeviceProperties(od::value v) {
    if (v.type() != od::json_type::array) {
        ++malformed;
        return;
    }
    od::array elements = v.get_array();
    std::uint64_t seen = 0; // any number of entries: polled as the events are
    for (auto element : elements) {
        if (seen++ % 4096 == 0)
            checkCancel();
        od::value gv = take(std::move(element));
        if (gv.type() != od::json_type::object) {
            ++malformed;
            continue;
        }
        GpuInfo g;
        bool hasId = false;
        std::uint32_t threadsPerSm = 0;
        forEachMember(take(gv.get_object()), [&](std::string_view k, od::value& x) {
            if (k == "id") {
                const auto id = integerOf(x);
                hasId = id && *id >= 0;
                g.id = u32(id);
            } else if (k == "name" && x.type() == od::json_type::string) {
                g.name = internName(stringOr(x));
            } else if (k == "numSms") {
                g.smCount = u32(integerOf(x));
            } else if (k == "computeMajor") {
                g.computeMajor = u32(integerOf(x));
            } else if (k == "computeMinor") {
                g.computeMinor = u32(integerOf(x));
            } else if (k == "maxThreadsPerBlock") {
                g.maxThreadsPerBlock = u32(integerOf(x));
            } else if (k == "maxThreadsPerMultiprocessor") {
                threadsPerSm = u32(integerOf(x));
            } else if (k == "regsPerBlock") {
                g.maxRegistersPerBlock = u32(integerOf(x));
            } else if (k == "regsPerMultiprocessor") {
                g.maxRegistersPerSm = u32(integerOf(x));
            } else if (k == "warpSize") {
                g.threadsPerWarp = u32(integerOf(x));
            } else if (k == "sharedMemPerBlock") {
                g.maxShmemPerBlock = u32(integerOf(x));
            } else if (k == "sharedMemPerBlockOptin") {
                g.maxShmemPerBlockOptin = u32(integerOf(x));
            } else if (k == "sharedMemPerMultiprocessor" ||
                       k == "maxSharedMemoryPerMultiProcessor") {
                g.maxShmemPerSm = u32(integerOf(x));
            } else if (k == "totalGlobalMem") {
                const auto bytes = integerOf(x);
                g.totalMemory = bytes && *bytes > 0 ? std::uint64_t(*bytes) : 0;
            }
        });
        if (g.threadsPerWarp)
            g.maxWarpsPerSm = threadsPerSm / g.threadsPerWarp;
        if (hasId)
            builder.addGpu(g);
        else
            ++malformed;
    }
}

void KinetoJsonLoader::Impl::readDistributedInfo(od::value v) {
    if (v.type() != od::json_type::object)
        return;
    TraceMetadata& meta = builder.metadata();
    forEachMember(take(v.get_object()), [&](std::string_view k, od::value& x) {
        if (k == "rank") {
            if (const auto r = integerOf(x); r && *r >= 0 && *r <= 0xFFFFFFFF)
                meta.rank = std::uint32_t(*r);
        } else if (k == "world_size") {
            if (const auto w = integerOf(x); w && *w > 0 && *w <= 0xFFFFFFFF)
                meta.worldSize = std::uint32_t(*w);
        } else if (k == "backend" && x.type() == od::json_type::string) {
            const std::string_view b = stringOr(x);
            meta.distributedBackend = QString::fromUtf8(b.data(), qsizetype(b.size()));
        }
    });
}

void KinetoJsonLoader::Impl::readDocument(od::document& doc) {
    TraceMetadata& meta = builder.metadata();
    meta.format = QStringLiteral("kineto-json");
    meta.productName = QStringLiteral("PyTorch Profiler");
    const od::json_type rootType = doc.type();
    if (rootType == od::json_type::array) { // the Chrome format's bare array of events
        readEvents(doc.get_array());
        if (!doc.current_location().error())
            fail(QStringLiteral("is not valid JSON: there is more text after the top-level "
                                "value"));
        return;
    }
    if (rootType != od::json_type::object)
        fail(QStringLiteral("is JSON but not a trace: its top level is not an object"));
    bool sawEvents = false;
    forEachMember(take(doc.get_object()), [&](std::string_view k, od::value& v) {
        if (k == "traceEvents") {
            if (v.type() != od::json_type::array)
                fail(QStringLiteral("is JSON but not a trace: its traceEvents is not an array"));
            // A split read walks one events array; the whole document's walk would take both.
            if (placeholderEvents && sawEvents)
                fail(QStringLiteral("has a second traceEvents array, which Strobe reads only in "
                                    "files of up to 4 GiB"));
            sawEvents = true;
            readEvents(take(v.get_array()));
        } else if (k == "deviceProperties") {
            readDeviceProperties(v);
        } else if (k == "distributedInfo") {
            readDistributedInfo(v);
        } else if (k == "schemaVersion") {
            if (v.type() == od::json_type::number) {
                std::string_view s = v.raw_json_token();
                while (!s.empty() && isBlank(s.back()))
                    s.remove_suffix(1);
                meta.schemaVersion = QString::fromLatin1(s.data(), qsizetype(s.size()));
            } else if (v.type() == od::json_type::string) {
                meta.schemaVersion = QString::fromUtf8(stringOr(v));
            }
        } else if (k == "baseTimeNanoseconds") {
            meta.sessionStartUtcNs = integerOf(v);
        }
    });
    if (!doc.current_location().error())
        fail(QStringLiteral("is not valid JSON: there is more text after the top-level value"));
    if (!sawEvents)
        fail(QStringLiteral("is JSON but not a trace: it has no traceEvents array"));
}

// The long-input-dims warning says the cap in words.
static_assert(kineto::kMaxInputShapesBytes == 4096);

void KinetoJsonLoader::Impl::addWarnings() {
    TraceBuilder& b = builder;
    b.warn(QStringLiteral("malformed-event"), malformed + parserMalformed,
           QStringLiteral("%1 events have missing or wrong-typed fields (ph, ts, dur, pid, tid or "
                          "device) and were skipped."));
    b.warn(QStringLiteral("negative-duration"), negativeDurations,
           QStringLiteral("%1 events have a negative duration; they are shown with zero length."));
    b.warn(QStringLiteral("missing-duration"), missingDurations,
           QStringLiteral("%1 complete events have no duration; they are shown with zero length."));
    // The builder's wording, which its own count of clamped times (none here) would repeat.
    b.warn(QStringLiteral("time-out-of-range"), clampedTimes,
           QStringLiteral("%1 events have times beyond the representable range (2^62 ns, about "
                          "146 years, either side of zero); they were clamped to it."));
    b.warn(QStringLiteral("long-name"), longNames,
           QStringLiteral("%1 names are longer than 64 KiB; they were cut to 64 KiB."));
    b.warn(QStringLiteral("malformed-input-dims"), malformedInputDims,
           QStringLiteral("%1 operators have Input Dims that are not a list of lists of "
                          "integers; their input shapes are left out."));
    b.warn(QStringLiteral("long-input-dims"), longInputDims,
           QStringLiteral("%1 operators have Input Dims longer than 4 KiB; their input shapes "
                          "are left out."));
    std::map<std::string, std::uint64_t> skippedKinds(skippedCategories.begin(),
                                                      skippedCategories.end());
    for (const auto& [phase, n] : skippedPhases)
        skippedKinds.emplace("phase " + phase, n);
    std::uint64_t skipped = 0;
    QStringList kinds;
    for (const auto& [kind, n] : skippedKinds) {
        skipped += n;
        if (kinds.size() < 6)
            kinds << QString::fromUtf8(kind.data(), qsizetype(kind.size())).left(40);
    }
    if (skippedKinds.size() > 6)
        kinds << QStringLiteral("...");
    b.warn(QStringLiteral("skipped-category"), skipped,
           QStringLiteral("%1 events of categories or phases Strobe does not show (") %
               kinds.join(QStringLiteral(", ")) % QStringLiteral(") were skipped."));
    if (eventsRead == 0)
        b.warn(QStringLiteral("no-events"), 1,
               QStringLiteral("The trace has no events (%1 file)."));
}

namespace {

// " near byte N" (from 1): where the walk was when the parser gave up, when it knows; empty when
// the text failed before the walk began (stage 1), the place is past its end, or it is the top
// level's first byte (a document whose brackets do not balance fails there, which says nothing).
QString whereInText(od::document& doc, const JsonText& text) {
    const char* at = nullptr;
    if (doc.current_location().get(at) || at <= text.begin() || at >= text.begin() + text.size)
        return {};
    return QStringLiteral(" near byte %1").arg(std::uint64_t(at - text.begin()) + text.skipped + 1);
}

QString changedWhileRead() {
    return QStringLiteral("changed while it was read: it is now shorter than when it was opened");
}

// simdjson's on-demand parser keeps its structural index (four bytes for each structural
// character) private. Stage 1 writes it, on one thread, into fresh memory whose page faults cost
// more than stage 1's own work, and the other core is idle meanwhile. Access checks do not apply
// to the names in an explicit instantiation, which lets this one function reach the member; a
// simdjson that renames it fails to compile here, never at run time.
template <auto Member> struct ParserImplementation {
    friend auto& implementationOf(od::parser& p) { return p.*Member; }
};
template struct ParserImplementation<&od::parser::implementation>;
auto& implementationOf(od::parser& p);

// Faults in the structural index of the document `text` while stage 1 fills it: one byte of
// index per byte of text, a structural character every four bytes, which Kineto JSON (one every
// four to five) does not exceed; stage 1 faults in whatever more it needs itself. Stopped once
// stage 1 is done.
std::unique_ptr<Prefaulter> prefaultIndex(od::parser& parser, const JsonText& text) {
    if (parser.allocate(std::max<std::size_t>(text.size, 64)) != simdjson::SUCCESS)
        return {}; // iterate() says what is wrong
    return std::make_unique<Prefaulter>(implementationOf(parser)->structural_indexes.get(),
                                        text.size, Prefaulter::From::Start);
}

// The parser of the calling thread's last read without the operators (a summary's, one file
// after another on each of a job's threads): its structural index, about the size of the text,
// is written again in place instead of faulted in afresh, which costs as much as stage 1 itself.
// Kept up to 1 GiB of capacity, until the thread's next such read or its end.
thread_local std::unique_ptr<od::parser> t_summaryParser;
constexpr std::size_t kKeptParserCapacity = std::size_t(1) << 30;

// Frees the document's text and the parser's index (gigabytes for a large trace, a few tenths of
// a second of unmapping) on another thread while the model is finished; joined when destroyed.
class Releaser {
public:
    void release(JsonText&& text, std::unique_ptr<od::parser>&& parser) {
        try {
            m_thread = std::thread([t = std::move(text), p = std::move(parser)]() mutable {
                t = {};
                p.reset();
            });
        } catch (const std::system_error&) {
            // No thread: the lambda, destroyed without running, freed both here.
        }
    }
    ~Releaser() {
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::thread m_thread;
};

} // namespace

KinetoJsonLoader::KinetoJsonLoader(const QString& path, const LoadOptions& options)
    : d(std::make_unique<Impl>(path, options)) {}

KinetoJsonLoader::KinetoJsonLoader(const QString& path, const LoadOptions& options,
                                   QByteArray content)
    : d(std::make_unique<Impl>(path, options)) {
    d->content = std::move(content);
}

KinetoJsonLoader::~KinetoJsonLoader() = default;

void KinetoJsonLoader::releaseKeptParser() {
    t_summaryParser.reset();
}

std::size_t KinetoJsonLoader::keptParserCapacity() {
    return t_summaryParser ? t_summaryParser->capacity() : 0;
}

void KinetoJsonLoader::splitIntoPieces(std::size_t bytes) {
    d->splitPieceBytes = std::max<std::size_t>(bytes, 1);
}

LoadResult KinetoJsonLoader::load() {
    Releaser releaser;
    // What the parser made of a file that shrank under it says nothing about the file.
    auto reword = [this](const QString& message) {
        return d->text.damaged() ? d->problem(changedWhileRead()) : message;
    };
    return loadAtBoundary(
        d->fileName(),
        [this, &releaser] {
            d->report(0);
            // Past one document's 4 GiB, a plain file is read in pieces (kinetosplit.cpp).
            if (!d->content) {
                if (auto source = openForSplit(d->path, d->splitPieceBytes != 0)) {
                    d->readSplit(*source);
                    return d->finishModel();
                }
            }
            const QString problem = d->content
                                        ? jsonTextFrom(*std::exchange(d->content, std::nullopt),
                                                       d->text, d->options.cancel)
                                        : readJsonText(d->path, d->text, d->options.cancel);
            if (problem == QLatin1String("cancelled"))
                throw LoadCancelled{};
            if (!problem.isEmpty())
                d->fail(problem);
            d->report(50);
            if (d->splitPieceBytes) { // the text in memory (gzip, a pipe), read in pieces too
                d->readSplit(*memoryTextSource(d->text.begin(), d->text.size, d->text.skipped));
                releaser.release(std::move(d->text), nullptr);
                return d->finishModel();
            }
            {
                const bool keepParser = !d->options.parts.testFlag(TracePart::CpuOps);
                std::unique_ptr<od::parser> parser;
                std::unique_ptr<Prefaulter> indexPrefaulter;
                if (keepParser)
                    parser = std::move(t_summaryParser);
                if (parser && parser->capacity() < d->text.size)
                    parser.reset(); // growing it would fault in as much as a fresh one
                if (!parser) {
                    // A kept parser grows to the next file's size (up to one document's 4 GiB).
                    parser =
                        keepParser
                            ? std::make_unique<od::parser>()
                            : std::make_unique<od::parser>(std::max<std::size_t>(d->text.size, 64));
                    indexPrefaulter = prefaultIndex(*parser, d->text);
                }
                od::document doc;
                bool walking = false; // stage 1 is done: the walk knows where it is
                try {
                    doc = parser->iterate(d->text.begin(), d->text.size, d->text.capacity);
                    walking = true;
                    indexPrefaulter.reset();
                    d->readDocument(doc);
                } catch (const simdjson::simdjson_error& e) {
                    // Text that turns binary past the first 4 KiB: say so, not the parser's
                    // symptom ("it ends inside a string").
                    if (const QString binary = binaryContentProblem(d->text); !binary.isEmpty())
                        d->fail(binary);
                    d->fail(QStringLiteral("is not valid JSON") %
                            (walking ? whereInText(doc, d->text) : QString()) %
                            QStringLiteral(": ") % simdjsonProblem(e.error()));
                }
                if (d->text.damaged())
                    d->fail(changedWhileRead());
                // The model holds copies of every string it keeps.
                if (keepParser && parser->capacity() <= kKeptParserCapacity)
                    t_summaryParser = std::move(parser);
                releaser.release(std::move(d->text), std::move(parser));
            }
            return d->finishModel();
        },
        reword);
}

} // namespace strobe
