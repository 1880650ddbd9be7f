// SPDX-License-Identifier: MIT
#include "formats/kineto/jsonsplit.h"

#include <QStringBuilder>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#if defined(__unix__)
#include <unistd.h>
#endif

namespace strobe::kineto {

namespace {

constexpr std::size_t kScanChunk = std::size_t(1) << 20;

bool isBlankByte(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

#if defined(__unix__)
class FileTextSource final : public TextSource {
public:
    FileTextSource(int fd, std::uint64_t skipped, std::uint64_t size)
        : m_fd(fd)
        , m_skipped(skipped)
        , m_size(size) {}
    ~FileTextSource() override { ::close(m_fd); }
    FileTextSource(const FileTextSource&) = delete;
    FileTextSource& operator=(const FileTextSource&) = delete;

    std::uint64_t size() const override { return m_size; }
    std::uint64_t skipped() const override { return m_skipped; }
    QString read(std::uint64_t pos, char* dest, std::size_t n) override {
        for (std::size_t done = 0; done < n;) {
            const ssize_t got = ::pread(m_fd, dest + done, n - done, off_t(m_skipped + pos + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                return QStringLiteral("could not be read: ") %
                       QString::fromLocal8Bit(std::strerror(errno));
            if (got == 0)
                return QStringLiteral("changed while it was read: it is now shorter than when it "
                                      "was opened");
            done += std::size_t(got);
        }
        return {};
    }

private:
    int m_fd;
    std::uint64_t m_skipped, m_size;
};
#endif

class MemoryTextSource final : public TextSource {
public:
    MemoryTextSource(const char* text, std::uint64_t size, std::uint64_t skipped)
        : m_text(text)
        , m_size(size)
        , m_skipped(skipped) {}
    std::uint64_t size() const override { return m_size; }
    std::uint64_t skipped() const override { return m_skipped; }
    QString read(std::uint64_t pos, char* dest, std::size_t n) override {
        if (n > 0) // (nothing to copy: `m_text` may be null for an empty text)
            std::memcpy(dest, m_text + pos, n);
        return {};
    }

private:
    const char* m_text;
    std::uint64_t m_size, m_skipped;
};

// Where a byte-at-a-time scan is: in a string (after a backslash in it), and how deep.
struct ScanState {
    std::int64_t depth = 0;
    bool inString = false, escaped = false;
    // Steps over byte `c`; true when `c` is structural (outside strings, not a quote).
    bool step(char c) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            return false;
        }
        if (c == '"') {
            inString = true;
            return false;
        }
        return true;
    }
};

} // namespace

#if defined(__unix__)
std::unique_ptr<TextSource> fileTextSource(int fd, std::uint64_t skipped, std::uint64_t size) {
    return std::make_unique<FileTextSource>(fd, skipped, size);
}
#endif

std::unique_ptr<TextSource> memoryTextSource(const char* text, std::uint64_t size,
                                             std::uint64_t skipped) {
    return std::make_unique<MemoryTextSource>(text, size, skipped);
}

Cut exactCut(TextSource& source, std::uint64_t from, std::uint64_t atLeast, std::uint64_t limit,
             QString& problem) {
    std::vector<char> chunk(kScanChunk);
    ScanState s;
    const std::uint64_t end = std::min(source.size(), from + limit);
    for (std::uint64_t at = from; at < end;) {
        const auto n = std::size_t(std::min<std::uint64_t>(kScanChunk, end - at));
        if (problem = source.read(at, chunk.data(), n); !problem.isEmpty())
            return {at, CutKind::End};
        for (std::size_t i = 0; i < n; ++i) {
            const char c = chunk[i];
            if (!s.step(c))
                continue;
            if (c == '{' || c == '[') {
                ++s.depth;
            } else if (c == '}' || c == ']') {
                if (s.depth == 0)
                    return {at + i, c == ']' ? CutKind::ArrayEnd : CutKind::Unbalanced};
                --s.depth;
            } else if (c == ',' && s.depth == 0 && at + i >= atLeast) {
                return {at + i, CutKind::Comma};
            }
        }
        at += n;
    }
    return end < source.size() ? Cut{end, CutKind::TooFar} : Cut{end, CutKind::End};
}

std::size_t guessCut(const char* p, std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < n;) {
        const void* brace = std::memchr(p + i, '}', n - i);
        if (!brace)
            return n;
        std::size_t j = std::size_t(static_cast<const char*>(brace) - p) + 1;
        i = j;
        while (j < n && isBlankByte(p[j]))
            ++j;
        if (j >= n || p[j] != ',')
            continue;
        std::size_t k = j + 1;
        while (k < n && isBlankByte(p[k]))
            ++k;
        if (k < n && p[k] == '{')
            return j;
    }
    return n;
}

QString findEventsArray(TextSource& source, std::uint64_t limit, EventsArray& out) {
    static constexpr std::string_view kEvents = "traceEvents";
    std::vector<char> chunk(kScanChunk);
    ScanState s;
    bool begun = false;          // the top-level value began (an object: the only kind scanned on)
    bool expectKey = false;      // directly in the top-level object, where a member name comes next
    bool inKey = false;          // in such a name
    bool eventsValue = false;    // after "traceEvents" and its ':': its value comes next
    bool afterEventsKey = false; // after "traceEvents", before its ':'
    std::string key;             // the name's bytes so far (kEvents.size() + 1 at most)
    bool keyEscaped = false;     // the name has an escape: it matches no name
    const std::uint64_t end = std::min(source.size(), limit);
    for (std::uint64_t at = 0; at < end;) {
        const auto n = std::size_t(std::min<std::uint64_t>(kScanChunk, end - at));
        if (QString problem = source.read(at, chunk.data(), n); !problem.isEmpty())
            return problem;
        for (std::size_t i = 0; i < n; ++i) {
            const char c = chunk[i];
            if (inKey) {
                if (s.escaped || c == '\\')
                    keyEscaped = true;
                if (!s.step(c)) {
                    if (!s.inString) { // the closing quote
                        inKey = false;
                        afterEventsKey = !keyEscaped && key == kEvents;
                    } else if (key.size() <= kEvents.size()) {
                        key.push_back(c);
                    }
                }
                continue;
            }
            if (eventsValue && !isBlankByte(c)) { // (never in a string: it follows a ':')
                if (c != '[')
                    return QStringLiteral("is JSON but not a trace: its traceEvents is not an "
                                          "array");
                out = {false, at + i};
                return {};
            }
            const bool structural = s.step(c);
            if (!begun) {
                if (isBlankByte(c))
                    continue;
                if (c == '[') {
                    out = {true, at + i};
                    return {};
                }
                if (c != '{')
                    return QStringLiteral("is JSON but not a trace: its top level is not an "
                                          "object");
                begun = true;
                expectKey = true;
                s.depth = 1;
                continue;
            }
            if (!structural) {
                if (s.inString && s.depth == 1 && expectKey) { // a name's opening quote
                    inKey = true;
                    expectKey = false;
                    key.clear();
                    keyEscaped = false;
                }
                continue;
            }
            if (c == '{' || c == '[') {
                ++s.depth;
            } else if (c == '}' || c == ']') {
                if (--s.depth <= 0)
                    return QStringLiteral("is JSON but not a trace: it has no traceEvents array");
            } else if (s.depth == 1 && c == ',') {
                expectKey = true;
            } else if (s.depth == 1 && c == ':') {
                eventsValue = afterEventsKey;
                afterEventsKey = false;
            }
        }
        at += n;
    }
    if (end < source.size())
        return QStringLiteral("has more than %1 MB of JSON before its traceEvents array, more "
                              "than Strobe reads around the events of a file this large")
            .arg(limit >> 20);
    return QStringLiteral("is not valid JSON: it is truncated or its brackets do not match");
}

} // namespace strobe::kineto
