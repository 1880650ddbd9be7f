// SPDX-License-Identifier: MIT
#pragma once

// The fuzzer's Kineto side (fuzzdriver.cpp): seeds as JSON text, and mutations at the JSON level
// (values of the members the reader maps, duplicated keys, deep nesting, a byte order mark) and
// the byte level (bit flips, truncation, spliced ranges), of the text or of its gzip.

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <optional>
#include <random>
#include <string>
#include <vector>
#include <zlib.h>

namespace strobe::fuzz {

using Rng = std::mt19937_64;

template <typename T> const T& pick(Rng& rng, const std::vector<T>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
}

inline std::size_t below(Rng& rng, std::size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

struct KinetoSeed {
    QString name;
    QByteArray text; // the JSON
    bool gzip = false;
};

struct KinetoCase {
    QByteArray bytes; // as written to the case's file
    bool gzip = false;
    std::string did;
};

inline QByteArray gzipBytes(const QByteArray& plain) {
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out(qsizetype(deflateBound(&z, uLong(plain.size()))), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.constData()));
    z.avail_in = uInt(plain.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(qsizetype(z.total_out));
    deflateEnd(&z);
    return out;
}

// The text of a gzip file, at most `limit` bytes of it.
inline QByteArray gunzipBytes(const QByteArray& gz, std::size_t limit) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return {};
    QByteArray out;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.constData()));
    z.avail_in = uInt(gz.size());
    char chunk[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK && std::size_t(out.size()) < limit) {
        z.next_out = reinterpret_cast<Bytef*>(chunk);
        z.avail_out = sizeof chunk;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(chunk, qsizetype(sizeof chunk - z.avail_out));
    }
    inflateEnd(&z);
    return out;
}

// A Kineto fixture as a seed: its text, a large one cut after the last event that ends in its
// first megabyte, the events array and the document closed again (what follows traceEvents in
// the file is lost; what precedes it, deviceProperties and all, is kept).
inline std::optional<KinetoSeed> readKinetoSeed(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    KinetoSeed seed;
    seed.name = QFileInfo(path).fileName();
    seed.gzip = path.endsWith(QLatin1String(".gz"));
    constexpr qsizetype kMax = 1 << 20;
    seed.text = seed.gzip ? gunzipBytes(f.readAll(), 4 * kMax) : f.readAll();
    if (seed.text.size() > kMax) {
        const qsizetype events = seed.text.indexOf("\"traceEvents\"");
        // Kineto writes one event per line, "args" last: an event ends in "}},\n" or "},\n".
        qsizetype cut = seed.text.lastIndexOf("},\n", kMax);
        if (events < 0 || cut < events)
            return std::nullopt;
        seed.text = seed.text.left(cut + 1) + "\n]}\n";
    }
    return seed;
}

// Where a member `"key":` is in `text` (the position of its value), at random among the first
// few thousand; -1 when there is none.
inline qsizetype valueOf(const QByteArray& text, const QByteArray& key, Rng& rng) {
    const QByteArray needle = '"' + key + "\":";
    std::vector<qsizetype> at;
    for (qsizetype i = text.indexOf(needle); i >= 0 && at.size() < 4000;
         i = text.indexOf(needle, i + 1))
        at.push_back(i + needle.size());
    if (at.empty())
        return -1;
    qsizetype v = pick(rng, at);
    while (v < text.size() && text[v] == ' ')
        ++v;
    return v;
}

// The length of the scalar token at `at` (to the next ',', '}' or ']').
inline qsizetype tokenLength(const QByteArray& text, qsizetype at) {
    qsizetype end = at;
    if (end < text.size() && text[end] == '"') {
        for (++end; end < text.size() && text[end] != '"'; ++end) {
            if (text[end] == '\\')
                ++end;
        }
        return std::min(end + 1, text.size()) - at;
    }
    while (end < text.size() && text[end] != ',' && text[end] != '}' && text[end] != ']')
        ++end;
    return end - at;
}

inline std::string mutateKinetoJson(QByteArray& text, Rng& rng) {
    static const std::vector<QByteArray> keys = {"ts",
                                                 "dur",
                                                 "pid",
                                                 "tid",
                                                 "ph",
                                                 "cat",
                                                 "name",
                                                 "id",
                                                 "device",
                                                 "stream",
                                                 "correlation",
                                                 "grid",
                                                 "block",
                                                 "bytes",
                                                 "External id",
                                                 "registers per thread",
                                                 "shared memory",
                                                 "Total Allocated",
                                                 "Device Id",
                                                 "numSms",
                                                 "warpSize",
                                                 "traceEvents",
                                                 "deviceProperties"};
    static const std::vector<QByteArray> values = {"1e400",
                                                   "-1e400",
                                                   "99999999999999999999999",
                                                   "-99999999999999999999999",
                                                   "9223372036854775807",
                                                   "-9223372036854775808",
                                                   "4611686018427387904",
                                                   "1e-400",
                                                   "-1",
                                                   "-0.0001",
                                                   "0",
                                                   "1.7976931348623157e308",
                                                   "\"12\"",
                                                   "\"\"",
                                                   "\"\\u0000\\ud800\"",
                                                   "\"X\"",
                                                   "\"i\"",
                                                   "\"M\"",
                                                   "\"s\"",
                                                   "\"f\"",
                                                   "\"kernel\"",
                                                   "\"cuda_runtime\"",
                                                   "null",
                                                   "true",
                                                   "[]",
                                                   "{}",
                                                   "[1, 2, 3, 4]",
                                                   "[-1, 0, 2147483648]",
                                                   "{\"x\": [1, {\"y\": 2}]}"};
    switch (below(rng, 6)) {
    case 0:
    case 1:
    case 2: { // a member's value replaced
        const QByteArray& key = pick(rng, keys);
        const qsizetype at = valueOf(text, key, rng);
        if (at < 0)
            return "no " + key.toStdString();
        const QByteArray& v = pick(rng, values);
        text.replace(at, tokenLength(text, at), v);
        return key.toStdString() + " = " + v.toStdString();
    }
    case 3: { // a duplicated key, first in an event
        const qsizetype at = valueOf(text, "ph", rng);
        const qsizetype open = at < 0 ? -1 : text.lastIndexOf('{', at);
        if (open < 0)
            return "no event";
        const QByteArray dup = '"' + pick(rng, keys) + "\": " + pick(rng, values) + ", ";
        text.insert(open + 1, dup);
        return "duplicated " + dup.toStdString();
    }
    case 4: { // deep nesting in an event's args, or in place of its value
        const int depth = int(below(rng, 3)) == 0 ? 100000 : int(below(rng, 2000)) + 1;
        const QByteArray nest = QByteArray(depth, '[') + QByteArray(depth, ']');
        const qsizetype at = valueOf(text, pick(rng, keys), rng);
        if (at < 0)
            return "nowhere to nest";
        text.replace(at, tokenLength(text, at), nest);
        return "nested " + std::to_string(depth);
    }
    default: // a byte order mark, and the text after it
        text.prepend("\xEF\xBB\xBF");
        return "byte order mark";
    }
}

inline std::string mutateBytes(QByteArray& bytes, Rng& rng) {
    if (bytes.isEmpty())
        return "empty";
    switch (below(rng, 3)) {
    case 0: { // bit flips
        const std::size_t n = below(rng, 16) + 1;
        for (std::size_t k = 0; k < n; ++k)
            bytes[qsizetype(below(rng, std::size_t(bytes.size())))] ^= char(1 << below(rng, 8));
        return std::to_string(n) + " bits flipped";
    }
    case 1: { // truncated
        const auto at = qsizetype(below(rng, std::size_t(bytes.size())));
        bytes.truncate(at);
        return "cut at " + std::to_string(at);
    }
    default: { // a range copied over another place, or inserted there
        const auto from = qsizetype(below(rng, std::size_t(bytes.size())));
        const auto len =
            qsizetype(below(rng, std::min<std::size_t>(4096, bytes.size() - from)) + 1);
        const QByteArray piece = bytes.mid(from, len);
        const auto to = qsizetype(below(rng, std::size_t(bytes.size())));
        if (rng() % 2)
            bytes.insert(to, piece);
        else
            bytes.replace(to, std::min(len, bytes.size() - to), piece);
        return "spliced " + std::to_string(len) + " bytes from " + std::to_string(from) + " to " +
               std::to_string(to);
    }
    }
}

// One case from `seed`: one to three mutations of its text, gzip again when the seed was gzip
// (or one case in six), its compressed bytes mutated instead in a fifth of those.
inline KinetoCase mutateKineto(const KinetoSeed& seed, Rng& rng) {
    KinetoCase c;
    c.gzip = seed.gzip || rng() % 6 == 0;
    QByteArray text = seed.text;
    const bool gzipLevel = c.gzip && rng() % 5 == 0;
    if (!gzipLevel) {
        for (std::size_t m = 0, n = below(rng, 3) + 1; m < n; ++m)
            c.did += (rng() % 3 == 0 ? mutateBytes(text, rng) : mutateKinetoJson(text, rng)) + "; ";
    }
    c.bytes = c.gzip ? gzipBytes(text) : text;
    if (gzipLevel)
        c.did = "gzip: " + mutateBytes(c.bytes, rng);
    return c;
}

} // namespace strobe::fuzz
