// SPDX-License-Identifier: MIT
// The split read of a Kineto trace whose JSON is larger than one simdjson document can be
// (4 GiB): the traceEvents array read a piece at a time, each piece (about kPieceBytes, cut at an
// element boundary) copied into a buffer as an array of its own and walked as the whole document
// is, on the same two threads; the members around the array parsed as small documents of their
// own. Only the pieces in flight are in memory, never the whole text. See docs/KINETO.md.
#include "formats/kineto/kinetoreaderimpl.h"
#include "formats/nativepath.h"

#include <QStringBuilder>
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#if defined(__unix__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace strobe {

using namespace kineto;

namespace {

// The usual piece, and how far past it the quick guess of its end looks (kineto::guessCut);
// past that, its end is found byte by byte (kineto::exactCut).
constexpr std::size_t kPieceBytes = std::size_t(32) << 20;
constexpr std::size_t kGuessWindow = std::size_t(1) << 20;
// The largest piece: one element (an event) past this is refused.
constexpr std::uint64_t kMaxPieceBytes = std::uint64_t(1) << 31;
// The most JSON read around the array (before it, and after it), parsed as documents of their
// own.
constexpr std::uint64_t kMaxAroundBytes = std::uint64_t(256) << 20;

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;

// A piece's bytes between the '[' and ']' the buffer adds, padded for simdjson.
struct PieceBuffer {
    std::unique_ptr<char[]> bytes;
    std::size_t capacity = 0; // readable bytes

    // Makes room for `len` bytes of text: '[' + text + ']' + padding.
    bool reserve(std::size_t len) {
        const std::size_t need = len + 2 + kPadding;
        if (need <= capacity)
            return true;
        bytes.reset(new (std::nothrow) char[need]);
        capacity = bytes ? need : 0;
        return bytes != nullptr;
    }
    char* text() { return bytes.get() + 1; }
    // Closes the array after `len` bytes of text.
    void close(std::size_t len) {
        bytes[0] = '[';
        bytes[len + 1] = ']';
        std::memset(bytes.get() + len + 2, 0, capacity - len - 2);
    }
};

QString nearByte(const TextSource& source, std::uint64_t at) {
    return QStringLiteral(" near byte %1").arg(at + source.skipped() + 1);
}

// Reads the pieces ahead, on a thread of its own, while the parser thread walks the one before
// and the builder thread maps the one before that (three buffers): each piece's bytes and the
// guess of its end (kineto::guessCut). It stops where the guess finds nothing (the parser
// thread then finds the exact end itself) or at the text's end, and starts again where the
// parser thread says (restart) when a guess proved wrong.
class PieceReader {
public:
    struct Piece {
        PieceBuffer* buffer = nullptr; // the parser thread's until release()
        std::uint64_t start = 0;       // the text position of its first byte
        Cut cut;                       // its guessed end (when `guessed`): a ',' or the end
        bool guessed = false;          // false: no guess; its bytes are not read
        QString problem;               // the read failed (the end of a sentence)
    };

    PieceReader(TextSource& source, std::uint64_t first, std::size_t target, std::size_t window)
        : m_source(source)
        , m_target(target)
        , m_window(window)
        , m_next(first) {
        for (PieceBuffer& b : m_buffers)
            m_free.push_back(&b);
        m_thread = std::thread([this] { run(); });
    }
    ~PieceReader() {
        {
            std::lock_guard lock(m_mutex);
            m_quit = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    PieceReader(const PieceReader&) = delete;
    PieceReader& operator=(const PieceReader&) = delete;

    // The next piece, in the text's order from the start or the last restart(); waits for it.
    Piece next() {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [this] { return !m_ready.empty(); });
        Piece p = std::move(m_ready.front());
        m_ready.pop_front();
        return p;
    }
    // Drops the pieces read ahead and reads on from `start`, an element's start.
    void restart(std::uint64_t start) {
        {
            std::lock_guard lock(m_mutex);
            ++m_generation;
            for (Piece& p : m_ready)
                m_free.push_back(p.buffer);
            m_ready.clear();
            m_next = start;
            m_stopped = false;
        }
        m_wake.notify_all();
    }
    // Hands a piece's buffer back once nothing points into it.
    void release(PieceBuffer* buffer) {
        {
            std::lock_guard lock(m_mutex);
            m_free.push_back(buffer);
        }
        m_wake.notify_all();
    }

private:
    void run() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return m_quit || (!m_stopped && !m_free.empty()); });
            if (m_quit)
                return;
            const std::uint64_t generation = m_generation, start = m_next;
            PieceBuffer* buffer = m_free.front();
            m_free.pop_front();
            lock.unlock();
            Piece p = read(buffer, start);
            lock.lock();
            if (generation != m_generation) { // restarted meanwhile: read from elsewhere
                m_free.push_back(buffer);
                continue;
            }
            if (p.guessed && p.cut.kind == CutKind::Comma && p.problem.isEmpty())
                m_next = p.cut.at + 1;
            else
                m_stopped = true; // the end, a failed read, or no guess: until a restart
            m_ready.push_back(std::move(p));
            m_wake.notify_all();
        }
    }

    Piece read(PieceBuffer* buffer, std::uint64_t start) const {
        Piece p{buffer, start, {}, false, {}};
        const auto n =
            std::size_t(std::min<std::uint64_t>(m_source.size() - start, m_target + m_window));
        if (!buffer->reserve(n)) {
            p.problem = QStringLiteral("is too large to read into memory");
            return p;
        }
        if (p.problem = m_source.read(start, buffer->text(), n); !p.problem.isEmpty())
            return p;
        const std::size_t len = guessCut(buffer->text(), std::min(m_target, n), n);
        if (len < n)
            p = {buffer, start, {start + len, CutKind::Comma}, true, {}};
        else if (start + n == m_source.size())
            p = {buffer, start, {start + n, CutKind::End}, true, {}};
        return p;
    }

    TextSource& m_source;
    const std::size_t m_target, m_window;
    std::array<PieceBuffer, 3> m_buffers;
    std::deque<PieceBuffer*> m_free;
    std::deque<Piece> m_ready;
    std::uint64_t m_next, m_generation = 0;
    bool m_stopped = false, m_quit = false;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::thread m_thread;
};

} // namespace

namespace kineto {

std::unique_ptr<TextSource> openForSplit(const QString& path, bool always) {
#if defined(__unix__)
    // Not even opened unless a regular file: opening a FIFO and closing it again could leave its
    // writer without a reader (SIGPIPE) before the whole-document reader opens it.
    struct stat st {};
    if (::stat(nativePath(path).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return {};
    const int fd = openNativeForReading(path);
    if (fd < 0)
        return {};
    char head[3] = {0, 0, 0};
    const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    const ssize_t n = regular ? ::pread(fd, head, 3, 0) : -1;
    if (n <= 0 || isGzip(head, std::size_t(n))) {
        ::close(fd);
        return {};
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    const std::uint64_t skipped = n == 3 && std::memcmp(head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    const std::uint64_t size = std::uint64_t(st.st_size) - skipped;
    if (!always && size <= kMaxJsonBytes) {
        ::close(fd);
        return {};
    }
    return fileTextSource(fd, skipped, size);
#else
    (void)path;
    (void)always;
    return {};
#endif
}

} // namespace kineto

// Parses `prefix` + text [from, to) + `suffix` as a document of its own: the members before or
// after the events array, around an empty placeholder array (readDocument skips it).
void KinetoJsonLoader::Impl::readAround(TextSource& source, std::string_view prefix,
                                        std::uint64_t from, std::uint64_t to,
                                        std::string_view suffix) {
    if (to - from > kMaxAroundBytes)
        fail(QStringLiteral("has more than %1 MB of JSON after its traceEvents array, more than "
                            "Strobe reads around the events of a file this large")
                 .arg(kMaxAroundBytes >> 20));
    const auto middle = std::size_t(to - from);
    std::string json(prefix.size() + middle + suffix.size(), '\0');
    if (!prefix.empty()) // (an empty view's data may be null, which memcpy must not see)
        std::memcpy(json.data(), prefix.data(), prefix.size());
    if (const QString problem = source.read(from, json.data() + prefix.size(), middle);
        !problem.isEmpty())
        fail(problem);
    if (!suffix.empty())
        std::memcpy(json.data() + prefix.size() + middle, suffix.data(), suffix.size());
    const simdjson::padded_string padded(json);
    od::parser parser;
    od::document doc;
    try {
        doc = take(parser.iterate(padded));
        readDocument(doc);
    } catch (const simdjson::simdjson_error& e) {
        fail(QStringLiteral("is not valid JSON: ") % simdjsonProblem(e.error()));
    }
}

std::uint64_t KinetoJsonLoader::Impl::readPieces(TextSource& source, std::uint64_t first) {
    const std::uint64_t size = source.size();
    const std::size_t target = splitPieceBytes ? splitPieceBytes : kPieceBytes;
    reserveStaging(size);
    // (before the pipe: when a failure unwinds, the builder thread stops before the buffers its
    // events point into are freed)
    PieceReader reader(source, first, target, std::clamp<std::size_t>(target, 4096, kGuessWindow));
    const std::unique_ptr<EventPipe> pipe = startBuilder();
    od::parser parser;
    std::uint64_t serial = 0;
    // The buffer walked before the current one, and the batches that point into it: handed
    // back to the reader once the builder thread has taken them.
    PieceBuffer* previous = nullptr;
    std::size_t previousHanded = 0;
    const auto handBack = [&](PieceBuffer* buffer, std::size_t handed) {
        pipe->waitConsumed(handed);
        reader.release(buffer);
    };
    // Walks the pieces; returns where the array closes.
    const auto walk = [&]() -> std::uint64_t {
        for (;;) {
            checkCancel();
            PieceReader::Piece piece = reader.next();
            if (!piece.problem.isEmpty())
                fail(piece.problem);
            PieceBuffer& buffer = *piece.buffer;
            const std::uint64_t start = piece.start;
            bool exact = !piece.guessed; // the piece's end found byte by byte
            for (;;) {                   // the piece, then its exact end if the guess was wrong
                Cut cut = piece.cut;
                std::size_t len = exact ? 0 : std::size_t(cut.at - start);
                if (exact) {
                    QString problem;
                    cut = exactCut(source, start, start + target, kMaxPieceBytes, problem);
                    if (!problem.isEmpty())
                        fail(problem);
                    if (cut.kind == CutKind::TooFar)
                        fail(QStringLiteral("has an event larger than %1 MB%2, more than Strobe "
                                            "reads as one piece of a file this large")
                                 .arg(kMaxPieceBytes >> 20)
                                 .arg(nearByte(source, start)));
                    if (cut.kind == CutKind::Unbalanced)
                        fail(QStringLiteral("is not valid JSON") % nearByte(source, cut.at) %
                             QStringLiteral(": ") % simdjsonProblem(simdjson::TAPE_ERROR));
                    len = std::size_t(cut.at - start);
                    if (!buffer.reserve(len))
                        fail(QStringLiteral("is too large to read into memory"));
                    if (const QString problem = source.read(start, buffer.text(), len);
                        !problem.isEmpty())
                        fail(problem);
                }
                buffer.close(len);
                // Byte 0 of the buffer (its '[') stands for the ',' or '[' before the piece.
                const std::uint64_t origin = start - 1;
                WalkMark mark{0, eventsRead, parserMalformed, deferredFlows.size()};
                simdjson::error_code error = simdjson::SUCCESS;
                std::optional<std::uint64_t> arrayEnd; // the array closed inside the piece
                const char* const base = buffer.bytes.get();
                od::document doc;
                bool walking = false;
                try {
                    doc = take(parser.iterate(base, len + 2, buffer.capacity));
                    walking = true;
                    walkElements(*pipe, take(doc.get_array()), base, origin, ++serial, size, mark);
                    // The walk ends at the first ']' that closes the array: the buffer's, or
                    // one in the text (the piece reached past the array's end).
                    if (const char* next = nullptr; !doc.current_location().get(next)) {
                        const char* close = next - 1;
                        while (close > base && *close != ']')
                            --close;
                        arrayEnd = origin + std::uint64_t(close - base);
                    }
                } catch (const simdjson::simdjson_error& e) {
                    error = e.error();
                }
                // The piece's last batch goes now: no batch holds the events of two buffers.
                pipe->hand();
                if (!error) {
                    if (previous)
                        handBack(previous, previousHanded);
                    previous = &buffer;
                    previousHanded = pipe->handed();
                    if (arrayEnd)
                        return *arrayEnd;
                    if (cut.kind == CutKind::ArrayEnd)
                        return cut.at;
                    if (cut.kind != CutKind::Comma)
                        fail(QStringLiteral("is not valid JSON") % nearByte(source, size) %
                             QStringLiteral(": ") %
                             simdjsonProblem(simdjson::INCOMPLETE_ARRAY_OR_OBJECT));
                    if (exact) // the reader went on from the guess
                        reader.restart(cut.at + 1);
                    break;
                }
                // The walk failed: at a wrong guess of the piece's end, or at an error in the
                // text. The events before the failure were handed on; the rest is read again.
                pipe->waitConsumed(pipe->handed());
                eventsRead = mark.eventsRead;
                parserMalformed = mark.parserMalformed;
                deferredFlows.truncate(mark.deferred);
                const char* failedAt = nullptr;
                const bool located = walking && !doc.current_location().get(failedAt) &&
                                     failedAt >= base && failedAt < base + len + 2;
                if (mark.after > 0) { // objects were walked: go on after the last one
                    if (base[mark.after] != ',')
                        fail(QStringLiteral("is not valid JSON") %
                             nearByte(source, origin + mark.after) % QStringLiteral(": ") %
                             simdjsonProblem(error));
                    reader.restart(origin + mark.after + 1);
                    reader.release(&buffer); // (its batches were all taken)
                    break;
                }
                if (exact) // the exact end, and still no object: the text is wrong here
                    fail(QStringLiteral("is not valid JSON") %
                         (located ? nearByte(source, origin + std::uint64_t(failedAt - base))
                                  : nearByte(source, start)) %
                         QStringLiteral(": ") % simdjsonProblem(error));
                exact = true;
            }
        }
    };
    const std::uint64_t arrayEnd = walk();
    finishEvents(*pipe, &source);
    return arrayEnd;
}

void KinetoJsonLoader::Impl::readSplit(TextSource& source) {
    EventsArray where;
    if (const QString problem = findEventsArray(source, kMaxAroundBytes, where); !problem.isEmpty())
        fail(problem);
    placeholderEvents = true;
    TraceMetadata& meta = builder.metadata();
    if (where.rootIsArray) {
        meta.format = QStringLiteral("kineto-json");
        meta.productName = QStringLiteral("PyTorch Profiler");
    } else {
        readAround(source, {}, 0, where.bracket, "[]}");
    }
    const std::uint64_t arrayEnd = readPieces(source, where.bracket + 1);
    if (where.rootIsArray) {
        // Only blanks may follow the top-level array.
        std::vector<char> rest(
            std::size_t(std::min<std::uint64_t>(source.size() - arrayEnd - 1, kMaxAroundBytes)));
        if (const QString problem = source.read(arrayEnd + 1, rest.data(), rest.size());
            !problem.isEmpty())
            fail(problem);
        const auto blank = [](char c) { return isBlank(c); };
        if (!std::all_of(rest.begin(), rest.end(), blank) ||
            source.size() - arrayEnd - 1 > rest.size())
            fail(QStringLiteral("is not valid JSON: ") %
                 simdjsonProblem(simdjson::TRAILING_CONTENT));
    } else {
        readAround(source, "{\"traceEvents\":[]", arrayEnd + 1, source.size(), {});
    }
    placeholderEvents = false;
}

} // namespace strobe
