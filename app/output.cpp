// SPDX-License-Identifier: MIT
#include "output.h"

#include <QStringBuilder>
#include <cmath>

namespace strobe::cli {

void JsonWriter::separate() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out << ", ";
        m_first.back() = false;
    }
}

void JsonWriter::beginObject() {
    separate();
    m_out << '{';
    m_first.push_back(true);
}

void JsonWriter::endObject() {
    m_out << '}';
    m_first.pop_back();
}

void JsonWriter::beginArray() {
    separate();
    m_out << '[';
    m_first.push_back(true);
}

void JsonWriter::endArray() {
    m_out << ']';
    m_first.pop_back();
}

void JsonWriter::key(const QString& k) {
    separate();
    m_out << escape(k) << ": ";
    m_afterKey = true;
}

void JsonWriter::value(const QString& s) {
    separate();
    m_out << escape(s);
}

void JsonWriter::value(std::int64_t v) {
    separate();
    m_out << QString::number(v);
}

void JsonWriter::value(std::uint64_t v) {
    separate();
    m_out << QString::number(v);
}

void JsonWriter::value(double v) {
    separate();
    if (std::isfinite(v))
        m_out << QString::number(v, 'g', 17);
    else
        m_out << "null";
}

void JsonWriter::value(bool v) {
    separate();
    m_out << (v ? "true" : "false");
}

void JsonWriter::null() {
    separate();
    m_out << "null";
}

QString JsonWriter::escape(const QString& s) {
    QString out;
    out.reserve(s.size() + 2);
    out += u'"';
    for (QChar c : s) {
        switch (c.unicode()) {
        case '"':
            out += QStringLiteral("\\\"");
            break;
        case '\\':
            out += QStringLiteral("\\\\");
            break;
        case '\n':
            out += QStringLiteral("\\n");
            break;
        case '\r':
            out += QStringLiteral("\\r");
            break;
        case '\t':
            out += QStringLiteral("\\t");
            break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u") %
                       QString::number(c.unicode(), 16).rightJustified(4, u'0');
            else
                out += c;
        }
    }
    out += u'"';
    return out;
}

QString csvField(const QString& s) {
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u'"', QStringLiteral("\"\""));
    return u'"' % q % u'"';
}

void writeCsvRow(QTextStream& out, const QStringList& fields) {
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            out << ',';
        out << csvField(fields[i]);
    }
    out << "\r\n";
}

QString formatNumber(double v, int decimals) {
    if (!std::isfinite(v))
        return QString();
    return QString::number(v, 'f', decimals);
}

} // namespace strobe::cli
