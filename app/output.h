// SPDX-License-Identifier: MIT
#pragma once

// Machine-readable output for strobe-cli: ordered JSON (keys appear in the order written, as the
// README documents them) and RFC 4180 CSV.

#include <QString>
#include <QStringList>
#include <QTextStream>
#include <cstdint>
#include <vector>

namespace strobe::cli {

class JsonWriter {
public:
    explicit JsonWriter(QTextStream& out)
        : m_out(out) {}
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(const QString& k);
    void value(const QString& s);
    void value(const char* s) { value(QString::fromUtf8(s)); }
    void value(std::int64_t v);
    void value(std::uint64_t v);
    void value(int v) { value(std::int64_t(v)); }
    void value(unsigned v) { value(std::uint64_t(v)); }
    void value(double v);
    void value(bool v);
    void null();
    template <typename T> void field(const QString& k, const T& v) {
        key(k);
        value(v);
    }

    static QString escape(const QString& s);

private:
    void separate();
    QTextStream& m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

// Quotes a CSV field when it holds a comma, quote, CR or LF (RFC 4180).
QString csvField(const QString& s);
// One CSV record of already-formatted fields, ending in CRLF as RFC 4180 says.
void writeCsvRow(QTextStream& out, const QStringList& fields);
// Plain number formatting for CSV and JSON: no thousands separators, '.' as decimal point.
QString formatNumber(double v, int decimals);

} // namespace strobe::cli
