// SPDX-License-Identifier: MIT
#include "model/job/summaryjson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringBuilder>
#include <QSysInfo>
#include <QtEndian>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <unordered_map>

namespace strobe {

namespace {

QJsonValue optional(const std::optional<std::uint32_t>& v) {
    return v ? QJsonValue(qint64(*v)) : QJsonValue();
}

QJsonObject breakdownJson(const RankBreakdown& b) {
    return {{QStringLiteral("compute_ns"), qint64(b.compute)},
            {QStringLiteral("communication_ns"), qint64(b.communication)},
            {QStringLiteral("exposed_communication_ns"), qint64(b.exposedCommunication)},
            {QStringLiteral("memory_ns"), qint64(b.memory)},
            {QStringLiteral("idle_ns"), qint64(b.idle)},
            {QStringLiteral("span_ns"), qint64(b.span)}};
}

// A strict JSON reader over the file's bytes, enough for a summary and fast on its columns of
// integers (a rank has hundreds of thousands of calls): one pass checks the syntax of the whole
// text (RFC 8259, UTF-8 strings) and records where each member of an object and each element
// of an array lies, so that the checks below read the members in their own order, as a DOM
// would, without building one. QJsonDocument took 4.5 s for 1,024 summaries of 1M-event ranks.
struct Span {
    const char* begin = nullptr;
    const char* end = nullptr;
    bool present() const { return begin != nullptr; }
    char first() const { return begin != end ? *begin : '\0'; }
    bool isNull() const { return end - begin == 4 && std::memcmp(begin, "null", 4) == 0; }
};

// One column's cells, read once: an exact integer (any range), null, or neither.
struct Cell {
    enum class State : std::uint8_t { Integer, Null, Other };
    std::int64_t value = 0;
    State state = State::Other;
};

// The cells of the document's long arrays of integers and nulls (the collectives' columns), by
// where they start: the syntax check reads them, so the columns are not read twice.
using Columns = std::unordered_map<const char*, std::vector<Cell>>;

class JsonText {
public:
    static constexpr int kMaxDepth = 512;

    static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    // The span of the one value `text` holds, blanks around it allowed; nullopt on any syntax
    // error.
    static std::optional<Span> document(const char* begin, const char* end,
                                        Columns* columns = nullptr) {
        JsonText t(begin, end);
        t.m_columns = columns;
        t.blanks();
        const Span v = t.value(0);
        t.blanks();
        if (!t.m_ok || t.m_p != t.m_end)
            return std::nullopt;
        return v;
    }

    // Calls fn(QByteArray key, Span value) for each member of an object span (already checked),
    // in order. The key is its UTF-8, unescaped; a key without escapes refers to the text.
    template <typename Fn> static void forEachMember(Span object, Fn&& fn) {
        JsonText t(object.begin + 1, object.end - 1);
        t.blanks();
        while (t.m_p < t.m_end) {
            const char* k = t.m_p + 1;
            const char* e = k;
            while (*e != '"' && *e != '\\')
                ++e;
            QByteArray key;
            if (*e == '"') {
                key = QByteArray::fromRawData(k, e - k);
                t.m_p = e + 1;
            } else {
                key = t.string().toUtf8();
            }
            t.blanks();
            ++t.m_p; // ':'
            t.blanks();
            const char* b = t.m_p;
            const Span v = t.numberFast(b) ? Span{b, t.m_p} : t.value(0);
            fn(key, v);
            t.blanks();
            if (t.m_p < t.m_end)
                ++t.m_p; // ','
            t.blanks();
        }
    }

    // Calls fn(Span) for each element of an array span (already checked).
    template <typename Fn> static void forEachElement(Span array, Fn&& fn) {
        JsonText t(array.begin + 1, array.end - 1);
        t.blanks();
        while (t.m_p < t.m_end) {
            const char* b = t.m_p;
            const Span v = t.numberFast(b) ? Span{b, t.m_p} : t.value(0);
            fn(v);
            t.blanks();
            if (t.m_p < t.m_end)
                ++t.m_p; // ','
            t.blanks();
        }
    }

    // The text of a string span (already checked).
    static QString text(Span s) {
        JsonText t(s.begin, s.end);
        return t.string();
    }

    // An integer in [lo, hi] for a number span; JSON's integral doubles (1.0, 1e3) count, as
    // QJsonValue::toInteger reads them. nullopt for anything else.
    static std::optional<std::int64_t> exact(Span v, std::int64_t lo, std::int64_t hi) {
        if (!isNumber(v))
            return std::nullopt;
        const char* p = v.begin;
        const bool negative = *p == '-';
        p += negative ? 1 : 0;
        std::uint64_t n = 0;
        const char* digits = p;
        while (p != v.end && *p >= '0' && *p <= '9' && p - digits < 18)
            n = n * 10 + std::uint64_t(*p++ - '0');
        if (p == v.end && p > digits) {
            const std::int64_t i = negative ? -std::int64_t(n) : std::int64_t(n);
            if (i < lo || i > hi)
                return std::nullopt;
            return i;
        }
        // Integer text keeps every digit while it fits 64 bits, as QJsonValue holds it.
        std::int64_t i = 0;
        if (const auto [end, ec] = std::from_chars(v.begin, v.end, i);
            ec == std::errc() && end == v.end)
            return i < lo || i > hi ? std::nullopt : std::optional(i);
        // Fractional, with an exponent or past 64 bits: a double, integral or not.
        double d = 0;
        const auto [end, ec] = std::from_chars(v.begin, v.end, d);
        if (ec != std::errc() || end != v.end || d != std::floor(d) || d < -0x1p63 || d >= 0x1p63)
            return std::nullopt;
        i = std::int64_t(d);
        if (i < lo || i > hi)
            return std::nullopt;
        return i;
    }
    static bool isNumber(Span v) {
        const char c = v.first();
        return c == '-' || c == '.' || (c >= '0' && c <= '9');
    }

private:
    JsonText(const char* begin, const char* end)
        : m_p(begin)
        , m_end(end) {}

    void blanks() {
        while (m_p < m_end && isSpace(*m_p))
            ++m_p;
    }
    Span fail() {
        m_ok = false;
        m_p = m_end;
        return {};
    }
    bool literal(const char* word, std::size_t n) {
        if (std::size_t(m_end - m_p) < n || std::memcmp(m_p, word, n) != 0)
            return false;
        m_p += n;
        return true;
    }

    // A plain integer followed by ',' or ']' (the columns' common case), consumed; else false
    // with nothing consumed.
    bool numberFast(const char* b) {
        std::int64_t v = 0;
        return numberFast(b, &v) != Fast::No;
    }
    // The same, with its value when it has at most 18 digits (Fast::Value).
    enum class Fast : std::uint8_t { No, Value, Long };
    Fast numberFast(const char* b, std::int64_t* value) {
        const char* p = b;
        const bool negative = p < m_end && *p == '-';
        p += negative ? 1 : 0;
        if (p == m_end || *p < '0' || *p > '9' ||
            (*p == '0' && p + 1 < m_end && p[1] >= '0' && p[1] <= '9'))
            return Fast::No;
        const char* digits = p;
        std::uint64_t n = 0;
        for (std::uint64_t eight = 0; m_end - p >= 8 && eightDigits(p, &eight); p += 8)
            n = n * 100'000'000 + eight; // wraps past 19 digits: Fast::Long then
        while (p < m_end && *p >= '0' && *p <= '9')
            n = n * 10 + std::uint64_t(*p++ - '0');
        if (p < m_end && *p != ',' && *p != ']' && !isSpace(*p))
            return Fast::No;
        m_p = p;
        if (p - digits > 18)
            return Fast::Long;
        *value = negative ? -std::int64_t(n) : std::int64_t(n);
        return Fast::Value;
    }

    // The value of the 8 ASCII digits at p, or false when one is not a digit: all eight at once
    // (timestamps have 16 to 19 digits, and a job's columns hold millions of them).
    static bool eightDigits(const char* p, std::uint64_t* value) {
        std::uint64_t x = 0;
        std::memcpy(&x, p, 8);
        if (QSysInfo::ByteOrder != QSysInfo::LittleEndian)
            x = qbswap(x); // the first digit in the low byte
        constexpr std::uint64_t high = 0xF0F0F0F0F0F0F0F0ull;
        if ((x & high) != 0x3030303030303030ull ||
            ((x + 0x0606060606060606ull) & high) != 0x3030303030303030ull)
            return false;
        x -= 0x3030303030303030ull;
        x = x * 10 + (x >> 8); // pairs of digits in every other byte
        x = (((x & 0x000000FF000000FFull) * (100 + (1'000'000ull << 32))) +
             (((x >> 16) & 0x000000FF000000FFull) * (1 + (10'000ull << 32)))) >>
            32;
        *value = x;
        return true;
    }

    // One value's span; checks its syntax (and its members' and elements') as it goes.
    Span value(int depth) {
        if (!m_ok || m_p >= m_end || depth > kMaxDepth)
            return fail();
        const char* b = m_p;
        switch (*m_p) {
        case '{':
            ++m_p;
            blanks();
            if (m_p < m_end && *m_p == '}') {
                ++m_p;
                return {b, m_p};
            }
            for (;;) {
                if (m_p >= m_end || *m_p != '"')
                    return fail();
                skipString();
                blanks();
                if (m_p >= m_end || *m_p != ':')
                    return fail();
                ++m_p;
                blanks();
                value(depth + 1);
                blanks();
                if (!m_ok || m_p >= m_end)
                    return fail();
                if (*m_p == '}') {
                    ++m_p;
                    return {b, m_p};
                }
                if (*m_p != ',')
                    return fail();
                ++m_p;
                blanks();
            }
        case '[': {
            ++m_p;
            blanks();
            if (m_p < m_end && *m_p == ']') {
                ++m_p;
                return {b, m_p};
            }
            bool keep = m_columns != nullptr;
            KeptCells cells;
            for (;;) {
                std::int64_t v = 0;
                const Fast fast = numberFast(m_p, &v);
                if (fast == Fast::Value) {
                    if (keep)
                        cells.keep({v, Cell::State::Integer});
                } else if (keep && fast == Fast::No && m_end - m_p >= 4 &&
                           std::memcmp(m_p, "null", 4) == 0) {
                    m_p += 4;
                    cells.keep({0, Cell::State::Null});
                } else {
                    keep = false;
                    if (fast == Fast::No)
                        value(depth + 1);
                }
                blanks();
                if (!m_ok || m_p >= m_end)
                    return fail();
                if (*m_p == ']') {
                    ++m_p;
                    if (keep && cells.all.size() >= kKeptCells)
                        m_columns->insert_or_assign(b, std::move(cells.all));
                    return {b, m_p};
                }
                if (*m_p != ',')
                    return fail();
                ++m_p;
                blanks();
            }
        }
        case '"':
            skipString();
            return m_ok ? Span{b, m_p} : Span{};
        case 't':
            return literal("true", 4) ? Span{b, m_p} : fail();
        case 'f':
            return literal("false", 5) ? Span{b, m_p} : fail();
        case 'n':
            return literal("null", 4) ? Span{b, m_p} : fail();
        default:
            return number() ? Span{b, m_p} : fail();
        }
    }

    // A number as QJsonDocument reads one (which read these files before): the digits of each
    // part optional, -?(0|[0-9]*)(\.[0-9]*)?([eE][+-]?[0-9]*)?, and the whole an integer or a
    // double (".5" and "5." are numbers; "." and "1e" are not).
    bool number() {
        const char* b = m_p;
        const auto digits = [&] {
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        };
        bool integer = true;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p < m_end && *m_p == '0')
            ++m_p;
        else
            digits();
        if (m_p < m_end && *m_p == '.') {
            integer = false;
            ++m_p;
            digits();
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            integer = false;
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            digits();
        }
        if (integer)
            return m_p - b > (*b == '-' ? 1 : 0);
        double d = 0;
        const auto [end, ec] = std::from_chars(b, m_p, d);
        return end == m_p && ec == std::errc();
    }

    static int hex(char c) {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    // Checks a string at m_p ('"') and moves past it: its escapes and its UTF-8. As lenient as
    // QJsonDocument, which read these files before: raw controls pass, and an escape of another
    // character than JSON's stands for that character.
    void skipString() {
        ++m_p;
        while (m_p < m_end && *m_p != '"') {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c >= 0x80) {
                if (!utf8Sequence()) {
                    fail();
                    return;
                }
                continue;
            }
            if (c == '\\') {
                if (++m_p >= m_end) {
                    fail();
                    return;
                }
                if (*m_p == 'u') {
                    for (int i = 1; i <= 4; ++i) {
                        if (m_p + i >= m_end || hex(m_p[i]) < 0) {
                            fail();
                            return;
                        }
                    }
                    m_p += 4;
                }
            }
            ++m_p;
        }
        if (m_p >= m_end) {
            fail();
            return;
        }
        ++m_p;
    }

    // One UTF-8 sequence of two to four bytes at m_p, moved past: no overlong form, surrogate
    // or code point past U+10FFFF.
    bool utf8Sequence() {
        const auto b0 = static_cast<unsigned char>(*m_p);
        const int n = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
        if (n == 0 || b0 > 0xF4 || m_end - m_p < n)
            return false;
        char32_t u = b0 & (0x7F >> n);
        for (int i = 1; i < n; ++i) {
            const auto b = static_cast<unsigned char>(m_p[i]);
            if ((b & 0xC0) != 0x80)
                return false;
            u = (u << 6) | (b & 0x3F);
        }
        constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (u < least[n] || u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF))
            return false;
        m_p += n;
        return true;
    }

    // The string at m_p (already checked) decoded; moves past it.
    QString string() {
        const char* b = ++m_p;
        const char* e = b;
        while (*e != '"' && *e != '\\')
            ++e;
        if (*e == '"') {
            m_p = e + 1;
            return QString::fromUtf8(b, e - b);
        }
        QByteArray utf8(b, e - b);
        QString out;
        m_p = e;
        while (*m_p != '"') {
            if (*m_p != '\\') {
                utf8 += *m_p++;
                continue;
            }
            ++m_p;
            const char c = *m_p++;
            switch (c) {
            case 'b':
                utf8 += '\b';
                break;
            case 'f':
                utf8 += '\f';
                break;
            case 'n':
                utf8 += '\n';
                break;
            case 'r':
                utf8 += '\r';
                break;
            case 't':
                utf8 += '\t';
                break;
            case 'u': {
                char16_t u = 0;
                for (int i = 0; i < 4; ++i)
                    u = char16_t(u * 16 + hex(*m_p++));
                out += QString::fromUtf8(utf8);
                utf8.clear();
                out += QChar(u);
                break;
            }
            default: // '"', '\\', '/', and any other character as itself (QJsonDocument's way)
                if (static_cast<unsigned char>(c) < 0x80) {
                    utf8 += c;
                } else {
                    out += QString::fromUtf8(utf8);
                    utf8.clear();
                    out += QChar(char16_t(static_cast<unsigned char>(c)));
                }
            }
        }
        ++m_p;
        return out + QString::fromUtf8(utf8);
    }

    // An array's cells while it is read: the first few on the stack (most arrays are short:
    // a step's [start, end]), the rest in `all`.
    static constexpr std::size_t kKeptCells = 64;
    struct KeptCells {
        std::array<Cell, 8> head{};
        std::size_t count = 0;
        std::vector<Cell> all;
        void keep(Cell c) {
            if (count < head.size()) {
                head[count++] = c;
                return;
            }
            if (all.empty())
                all.assign(head.begin(), head.end());
            all.push_back(c);
        }
    };

    const char* m_p;
    const char* m_end;
    bool m_ok = true;
    Columns* m_columns = nullptr;
};

// An object's members by key, later keys winning as in QJsonObject. A handful each: a list.
class Members {
public:
    Members() = default;
    explicit Members(Span object) {
        JsonText::forEachMember(
            object, [&](QByteArray key, Span v) { m_members.emplace_back(std::move(key), v); });
    }
    // For the keys of this file (ASCII); empty when absent.
    Span value(QLatin1String key) const {
        for (auto it = m_members.rbegin(); it != m_members.rend(); ++it) {
            if (QByteArrayView(it->first) == QByteArrayView(key.data(), key.size()))
                return it->second;
        }
        return {};
    }
    Span value(const QString& key) const {
        for (auto it = m_members.rbegin(); it != m_members.rend(); ++it) {
            if (same(it->first, key))
                return it->second;
        }
        return {};
    }

private:
    static bool same(const QByteArray& utf8, const QString& key) {
        if (utf8.size() != key.size())
            return utf8.size() >= key.size() && QString::fromUtf8(utf8) == key;
        for (qsizetype i = 0; i < utf8.size(); ++i) {
            if (static_cast<unsigned char>(utf8[i]) >= 0x80)
                return QString::fromUtf8(utf8) == key;
            if (char16_t(static_cast<unsigned char>(utf8[i])) != key[i].unicode())
                return false;
        }
        return true;
    }

    std::vector<std::pair<QByteArray, Span>> m_members;
};

// Reads members one by one and keeps the first thing wrong as a phrase ("steps[3].start_ns is
// not a time"); every getter returns a harmless value once something is wrong. An absent
// member is an empty Span, which is of no type.
class Checked {
public:
    QString error;

    bool ok() const { return error.isEmpty(); }
    void fail(const QString& what) {
        if (error.isEmpty())
            error = what;
    }
    Span member(const Members& o, const QString& key, const QString& where) {
        const Span v = o.value(key);
        if (!v.present())
            fail(where % key % QStringLiteral(" is missing"));
        return v;
    }
    std::int64_t integer(Span v, const QString& what, std::int64_t lo, std::int64_t hi) {
        if (const auto a = JsonText::exact(v, lo, hi))
            return *a;
        fail(what % QStringLiteral(" is not an integer in range"));
        return lo < 0 && hi > 0 ? 0 : lo;
    }
    TimeNs duration(const Members& o, const QString& key, const QString& where) {
        return integer(member(o, key, where), where % key, 0, kMaxTime);
    }
    std::optional<std::uint32_t> optionalU32(const Members& o, const QString& key) {
        const Span v = member(o, key, {});
        if (v.isNull())
            return std::nullopt;
        return std::uint32_t(integer(v, key, 0, 0xFFFFFFFF));
    }
    QString string(const Members& o, const QString& key, const QString& where) {
        const Span v = member(o, key, where);
        if (v.first() != '"') {
            fail(where % key % QStringLiteral(" is not a string"));
            return {};
        }
        return JsonText::text(v);
    }
    Members object(Span v, const QString& what) {
        if (v.first() != '{') {
            fail(what % QStringLiteral(" is not an object"));
            return {};
        }
        return Members(v);
    }
    std::vector<Span> array(Span v, const QString& what) {
        std::vector<Span> out;
        if (v.first() != '[') {
            fail(what % QStringLiteral(" is not an array"));
            return out;
        }
        JsonText::forEachElement(v, [&](Span e) { out.push_back(e); });
        return out;
    }
    TimeRange range(Span v, const QString& what) {
        const std::vector<Span> a = array(v, what);
        if (a.size() != 2) {
            fail(what % QStringLiteral(" is not a [start, end] pair"));
            return {};
        }
        const TimeRange r{integer(a[0], what, kMinTime, kMaxTime),
                          integer(a[1], what, kMinTime, kMaxTime)};
        if (r.end < r.start)
            fail(what % QStringLiteral(" ends before it starts"));
        return r;
    }
    RankBreakdown breakdown(Span v, const QString& what) {
        const Members o = object(v, what);
        const QString w = what % u'.';
        RankBreakdown b;
        b.compute = duration(o, QStringLiteral("compute_ns"), w);
        b.communication = duration(o, QStringLiteral("communication_ns"), w);
        b.exposedCommunication = duration(o, QStringLiteral("exposed_communication_ns"), w);
        b.memory = duration(o, QStringLiteral("memory_ns"), w);
        b.idle = duration(o, QStringLiteral("idle_ns"), w);
        b.span = duration(o, QStringLiteral("span_ns"), w);
        if (ok() && (b.exposedCommunication > b.communication || b.idle > b.span ||
                     b.compute > b.span || b.communication > b.span || b.memory > b.span))
            fail(what % QStringLiteral(" has parts larger than their whole"));
        return b;
    }
};

// A step read without naming anything (a rank has hundreds): true when every check of the
// named path below passes, else false and that path says what is wrong. Later keys win.
bool wellFormedStep(Span v, RankStep& step) {
    if (v.first() != '{')
        return false;
    bool ok = true;
    bool number = false, host = false, breakdown = false;
    JsonText::forEachMember(v, [&](const QByteArray& key, Span value) {
        if (key == "step") {
            const auto n = JsonText::exact(value, 0, std::numeric_limits<qint64>::max());
            ok = ok && n;
            step.number = std::uint64_t(n.value_or(0));
            number = true;
        } else if (key == "host") {
            std::size_t count = 0;
            std::optional<std::int64_t> ends[2];
            if (value.first() == '[') {
                JsonText::forEachElement(value, [&](Span e) {
                    if (count < 2)
                        ends[count] = JsonText::exact(e, kMinTime, kMaxTime);
                    ++count;
                });
            }
            ok = ok && count == 2 && ends[0] && ends[1] && *ends[1] >= *ends[0];
            step.host = {ends[0].value_or(0), ends[1].value_or(0)};
            host = true;
        } else if (key == "breakdown") {
            RankBreakdown& b = step.breakdown;
            std::optional<std::int64_t> parts[6];
            if (value.first() == '{') {
                JsonText::forEachMember(value, [&](const QByteArray& k, Span x) {
                    static constexpr const char* kKeys[] = {
                        "compute_ns", "communication_ns", "exposed_communication_ns",
                        "memory_ns",  "idle_ns",          "span_ns"};
                    for (std::size_t p = 0; p < 6; ++p) {
                        if (k == kKeys[p])
                            parts[p] = JsonText::exact(x, 0, kMaxTime);
                    }
                });
            }
            for (const auto& part : parts)
                ok = ok && part;
            if (ok) {
                b = {*parts[0], *parts[1], *parts[2], *parts[3], *parts[4], *parts[5]};
                ok = !(b.exposedCommunication > b.communication || b.idle > b.span ||
                       b.compute > b.span || b.communication > b.span || b.memory > b.span);
            }
            breakdown = true;
        }
    });
    return ok && number && host && breakdown;
}

// Collectives are columns, not an object each: a rank has up to hundreds of thousands of them.
// Kinds and process groups are listed once (RankSummary's lists) and referenced by index.
QJsonObject collectivesJson(const RankSummary& s) {
    QJsonArray kind, group, stream, order, start, end, bytes;
    for (const RankCollective& c : s.collectives) {
        kind.append(qint64(c.kind));
        group.append(c.processGroup ? QJsonValue(qint64(*c.processGroup)) : QJsonValue());
        stream.append(qint64(c.streamOrdinal));
        order.append(qint64(c.order));
        start.append(qint64(c.gpu.start));
        end.append(qint64(c.gpu.end));
        bytes.append(c.bytes ? QJsonValue(qint64(*c.bytes)) : QJsonValue());
    }
    return {{QStringLiteral("kinds"), QJsonArray::fromStringList(s.collectiveKinds)},
            {QStringLiteral("process_groups"), QJsonArray::fromStringList(s.processGroups)},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("process_group"), group},
            {QStringLiteral("stream"), stream},
            {QStringLiteral("order"), order},
            {QStringLiteral("start_ns"), start},
            {QStringLiteral("end_ns"), end},
            {QStringLiteral("bytes"), bytes}};
}

std::vector<Cell> cellsOf(Checked& in, Span column, const QString& what, Columns& columns) {
    std::vector<Cell> out;
    if (column.first() != '[') {
        in.fail(what % QStringLiteral(" is not an array"));
        return out;
    }
    if (const auto kept = columns.find(column.begin); kept != columns.end())
        return std::move(kept->second);
    constexpr auto lo = std::numeric_limits<std::int64_t>::min();
    constexpr auto hi = std::numeric_limits<std::int64_t>::max();
    JsonText::forEachElement(column, [&](Span v) {
        Cell c;
        if (const auto i = JsonText::exact(v, lo, hi)) {
            c.value = *i;
            c.state = Cell::State::Integer;
        } else if (v.isNull()) {
            c.state = Cell::State::Null;
        }
        out.push_back(c);
    });
    return out;
}

void collectivesFrom(Checked& in, Span v, RankSummary& s, Columns& columns) {
    const QString what = QStringLiteral("collectives");
    const Members o = in.object(v, what);
    const auto member = [&](const char* key) {
        return in.member(o, QLatin1String(key), what % u'.');
    };
    const auto names = [&](const char* key) {
        QStringList out;
        for (const Span name : in.array(member(key), what % u'.' % QLatin1String(key))) {
            const QString text = name.first() == '"' ? JsonText::text(name) : QString();
            if (text.isEmpty())
                in.fail(what % u'.' % QLatin1String(key) % QStringLiteral(" holds a non-name"));
            out << text;
        }
        return out;
    };
    s.collectiveKinds = names("kinds");
    s.processGroups = names("process_groups");
    const auto column = [&](const char* key) {
        return cellsOf(in, member(key), what % u'.' % QLatin1String(key), columns);
    };
    const std::vector<Cell> kind = column("kind"), group = column("process_group"),
                            stream = column("stream"), order = column("order"),
                            start = column("start_ns"), end = column("end_ns"),
                            bytes = column("bytes");
    const std::size_t n = kind.size();
    for (const std::vector<Cell>* c : {&group, &stream, &order, &start, &end, &bytes}) {
        if (c->size() != n)
            in.fail(what % QStringLiteral("' columns differ in length"));
    }
    if (!in.ok())
        return;
    s.collectives.reserve(n);
    const auto kinds = std::int64_t(s.collectiveKinds.size());
    const auto groups = std::int64_t(s.processGroups.size());
    for (std::size_t i = 0; i < n && in.ok(); ++i) {
        // The row's name is made only for the sentence: a rank has many rows.
        const auto field = [&](const Cell& x, std::int64_t lo, std::int64_t hi, const char* name) {
            if (x.state != Cell::State::Integer || x.value < lo || x.value > hi) {
                in.fail(what % u'[' % QString::number(i) % QStringLiteral("].") %
                        QLatin1String(name) % QStringLiteral(" is not an integer in range"));
                return std::int64_t(0);
            }
            return x.value;
        };
        constexpr std::int64_t u32 = 0xFFFFFFFF;
        RankCollective c;
        // An empty list makes the range [0, -1]: every index fails.
        c.kind = std::uint32_t(field(kind[i], 0, kinds - 1, "kind"));
        if (group[i].state != Cell::State::Null)
            c.processGroup = std::uint32_t(field(group[i], 0, groups - 1, "process_group"));
        c.streamOrdinal = std::uint32_t(field(stream[i], 0, u32, "stream"));
        c.order = std::uint32_t(field(order[i], 0, u32, "order"));
        c.gpu = {field(start[i], kMinTime, kMaxTime, "start_ns"),
                 field(end[i], kMinTime, kMaxTime, "end_ns")};
        if (in.ok() && c.gpu.end < c.gpu.start)
            in.fail(what % u'[' % QString::number(i) % QStringLiteral("] ends before it starts"));
        if (bytes[i].state != Cell::State::Null)
            c.bytes =
                std::uint64_t(field(bytes[i], 0, std::numeric_limits<qint64>::max(), "bytes"));
        s.collectives.push_back(c);
    }
}

} // namespace

QByteArray rankSummaryToJson(const RankSummary& s) {
    QJsonArray steps;
    for (const RankStep& step : s.steps)
        steps.append(QJsonObject{
            {QStringLiteral("step"), qint64(step.number)},
            {QStringLiteral("host"), QJsonArray{qint64(step.host.start), qint64(step.host.end)}},
            {QStringLiteral("breakdown"), breakdownJson(step.breakdown)}});
    QJsonArray busy;
    for (TimeNs b : s.busy)
        busy.append(qint64(b));
    const QJsonObject root{
        {QStringLiteral("format"), QLatin1String(kRankSummaryFormat)},
        {QStringLiteral("version"), kRankSummaryVersion},
        {QStringLiteral("file"), s.file},
        {QStringLiteral("pid"), optional(s.pid)},
        {QStringLiteral("rank"), qint64(s.rank)},
        {QStringLiteral("rank_source"), rankSourceKey(s.rankSource)},
        {QStringLiteral("world_size"), optional(s.worldSize)},
        {QStringLiteral("backend"), s.backend},
        {QStringLiteral("trace_format"), s.format},
        {QStringLiteral("device_id"), optional(s.deviceId)},
        {QStringLiteral("gpu"), s.gpu},
        {QStringLiteral("clock_origin_ns"),
         s.clockOriginNs ? QJsonValue(qint64(*s.clockOriginNs)) : QJsonValue()},
        {QStringLiteral("gpu_span"), QJsonArray{qint64(s.gpuSpan.start), qint64(s.gpuSpan.end)}},
        {QStringLiteral("whole"), breakdownJson(s.whole)},
        {QStringLiteral("hta_window"), s.htaWindow ? breakdownJson(*s.htaWindow) : QJsonValue()},
        {QStringLiteral("steps"), steps},
        {QStringLiteral("collectives"), collectivesJson(s)},
        {QStringLiteral("busy_ns"), busy},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(s.warnings)},
    };
    QJsonObject withHost = root;
    if (!s.host.isEmpty()) // only when recorded: summaries without one keep their bytes
        withHost.insert(QStringLiteral("host"), s.host);
    return QJsonDocument(withHost).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<RankSummary> rankSummaryFromJson(const QByteArray& json, QString* error) {
    Columns columns;
    const std::optional<Span> doc = JsonText::document(json.cbegin(), json.cend(), &columns);
    if (!doc || doc->first() != '{') {
        *error = QStringLiteral("is not a rank summary: it is not a JSON object");
        return std::nullopt;
    }
    const Members root(*doc);
    const Span format = root.value(QStringLiteral("format"));
    if (format.first() != '"' || JsonText::text(format) != QLatin1String(kRankSummaryFormat)) {
        *error = QStringLiteral("is not a rank summary: its format is not \"") %
                 QLatin1String(kRankSummaryFormat) % u'"';
        return std::nullopt;
    }
    const Span version = root.value(QStringLiteral("version"));
    if (JsonText::exact(version, kRankSummaryVersion, kRankSummaryVersion) != kRankSummaryVersion) {
        double v = 0;
        const bool number = JsonText::isNumber(version) &&
                            std::from_chars(version.begin, version.end, v).ec == std::errc();
        *error = QStringLiteral("is a rank summary of version %1; this Strobe reads version %2 "
                                "(summarize the trace again)")
                     .arg(number ? QString::number(v) : QStringLiteral("unknown"))
                     .arg(kRankSummaryVersion);
        return std::nullopt;
    }
    Checked in;
    RankSummary s;
    s.file = in.string(root, QStringLiteral("file"), {});
    s.pid = in.optionalU32(root, QStringLiteral("pid"));
    s.rank = std::uint32_t(in.integer(in.member(root, QStringLiteral("rank"), {}),
                                      QStringLiteral("rank"), 0, 0xFFFFFFFF));
    const auto source = rankSourceFromKey(in.string(root, QStringLiteral("rank_source"), {}));
    if (!source)
        in.fail(QStringLiteral("rank_source is not recorded, file-name or order"));
    s.rankSource = source.value_or(RankSource::Order);
    s.worldSize = in.optionalU32(root, QStringLiteral("world_size"));
    s.backend = in.string(root, QStringLiteral("backend"), {});
    s.format = in.string(root, QStringLiteral("trace_format"), {});
    s.deviceId = in.optionalU32(root, QStringLiteral("device_id"));
    s.gpu = in.string(root, QStringLiteral("gpu"), {});
    if (root.value(QStringLiteral("host")).present()) // optional: older files lack it
        s.host = in.string(root, QStringLiteral("host"), {});
    if (const Span v = in.member(root, QStringLiteral("clock_origin_ns"), {}); !v.isNull())
        s.clockOriginNs =
            in.integer(v, QStringLiteral("clock_origin_ns"), std::numeric_limits<qint64>::min(),
                       std::numeric_limits<qint64>::max());
    s.gpuSpan =
        in.range(in.member(root, QStringLiteral("gpu_span"), {}), QStringLiteral("gpu_span"));
    s.whole = in.breakdown(in.member(root, QStringLiteral("whole"), {}), QStringLiteral("whole"));
    if (const Span v = in.member(root, QStringLiteral("hta_window"), {}); !v.isNull())
        s.htaWindow = in.breakdown(v, QStringLiteral("hta_window"));
    const std::vector<Span> steps =
        in.array(in.member(root, QStringLiteral("steps"), {}), QStringLiteral("steps"));
    s.steps.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size() && in.ok(); ++i) {
        RankStep step;
        const bool fast = wellFormedStep(steps[i], step);
        const QString what = fast ? QString() : QStringLiteral("steps[%1]").arg(i);
        if (!fast) { // the checks again, naming what is wrong
            const Members o = in.object(steps[i], what);
            step.number =
                std::uint64_t(in.integer(in.member(o, QStringLiteral("step"), what % u'.'), what, 0,
                                         std::numeric_limits<qint64>::max()));
            step.host = in.range(in.member(o, QStringLiteral("host"), what % u'.'), what);
            step.breakdown =
                in.breakdown(in.member(o, QStringLiteral("breakdown"), what % u'.'), what);
        }
        if (!s.steps.empty() && step.host.start < s.steps.back().host.start)
            in.fail(QStringLiteral("steps[%1]").arg(i) %
                    QStringLiteral(" starts before the step above it"));
        s.steps.push_back(step);
    }
    if (in.ok())
        collectivesFrom(in, in.member(root, QStringLiteral("collectives"), {}), s, columns);
    const std::vector<Span> busy =
        in.array(in.member(root, QStringLiteral("busy_ns"), {}), QStringLiteral("busy_ns"));
    if (in.ok() && busy.size() != std::size_t(kUtilisationBuckets) && !busy.empty())
        in.fail(QStringLiteral("busy_ns does not have %1 buckets").arg(kUtilisationBuckets));
    for (std::size_t i = 0; i < busy.size() && in.ok(); ++i)
        s.busy.push_back(in.integer(busy[i], QStringLiteral("busy_ns"), 0, s.gpuSpan.duration()));
    for (const Span w :
         in.array(in.member(root, QStringLiteral("warnings"), {}), QStringLiteral("warnings"))) {
        if (w.first() != '"')
            in.fail(QStringLiteral("warnings holds something other than sentences"));
        s.warnings << (w.first() == '"' ? JsonText::text(w) : QString());
    }
    if (!in.ok()) {
        *error = QStringLiteral("is a damaged rank summary: ") % in.error;
        return std::nullopt;
    }
    return s;
}

bool writeRankSummaryFile(const QString& path, const RankSummary& s, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = path % QStringLiteral(" cannot be written: ") % f.errorString();
        return false;
    }
    f.write(rankSummaryToJson(s));
    if (!f.commit()) {
        *error = path % QStringLiteral(" cannot be written: ") % f.errorString();
        return false;
    }
    return true;
}

std::optional<RankSummary> readRankSummaryFile(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path % QStringLiteral(" cannot be read: ") % f.errorString();
        return std::nullopt;
    }
    if (f.size() > kMaxRankSummaryBytes) {
        *error = path % QStringLiteral(" is not a rank summary: it is larger than %1 MB")
                            .arg(kMaxRankSummaryBytes >> 20);
        return std::nullopt;
    }
    QString why;
    auto s = rankSummaryFromJson(f.readAll(), &why);
    if (!s)
        *error = path % u' ' % why % u'.';
    return s;
}

} // namespace strobe
