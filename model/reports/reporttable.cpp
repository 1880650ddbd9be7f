// SPDX-License-Identifier: MIT
#include "model/reports/reporttable.h"

#include <QStringBuilder>
#include <algorithm>

namespace strobe {

namespace {
bool isControl(char16_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}
} // namespace

namespace {
QString escapeControlsExcept(const QString& s, char16_t keep) {
    auto escaped = [keep](QChar c) { return isControl(c.unicode()) && c.unicode() != keep; };
    if (std::none_of(s.begin(), s.end(), escaped))
        return s;
    QString out;
    out.reserve(s.size() + 16);
    for (QChar c : s) {
        if (escaped(c))
            out += QStringLiteral("\\x") %
                   QString::number(c.unicode(), 16).toUpper().rightJustified(2, u'0');
        else
            out += c;
    }
    return out;
}
} // namespace

QString escapeControls(const QString& s) {
    return escapeControlsExcept(s, 0xFFFF);
}

QString escapeControlsKeepingLineFeeds(const QString& s) {
    return escapeControlsExcept(s, u'\n');
}

QString csvSafeText(const QString& s) {
    QString t = escapeControlsExcept(s, u'\n'); // a quoted CSV field may hold a line feed
    if (!t.isEmpty() &&
        (t.front() == u'=' || t.front() == u'+' || t.front() == u'-' || t.front() == u'@'))
        return u'\'' % t;
    return t;
}

QString csvQuoted(const QString& s) {
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u'"', QStringLiteral("\"\""));
    return u'"' % q % u'"';
}

static void csvRecord(QTextStream& out, const QStringList& fields) {
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            out << ',';
        out << csvQuoted(fields[i]);
    }
    out << "\r\n";
}

QString jsonString(const QString& s) {
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
            if (isControl(c.unicode()))
                out += QStringLiteral("\\u") %
                       QString::number(c.unicode(), 16).rightJustified(4, u'0');
            else
                out += c;
        }
    }
    out += u'"';
    return out;
}

void writeCsv(QTextStream& out, const ReportTable& table) {
    csvRecord(out, table.columns);
    QStringList fields;
    table.forEachRow([&](const std::vector<ReportCell>& row) {
        fields.clear();
        for (const ReportCell& c : row)
            fields << (c.kind == ReportCell::Kind::Null   ? QString()
                       : c.kind == ReportCell::Kind::Text ? csvSafeText(c.text)
                                                          : c.text);
        csvRecord(out, fields);
    });
}

QString toCsv(const ReportTable& table) {
    QString s;
    QTextStream out(&s);
    writeCsv(out, table);
    out.flush();
    return s;
}

void writeJson(QTextStream& out, const ReportTable& table) {
    out << '[';
    std::size_t r = 0;
    table.forEachRow([&](const std::vector<ReportCell>& row) {
        out << (r++ ? ",\n {" : "\n {");
        for (qsizetype c = 0; c < table.columns.size(); ++c) {
            if (c)
                out << ", ";
            out << jsonString(table.columns[c]) << ": ";
            const ReportCell cell = std::size_t(c) < row.size() ? row[c] : ReportCell::null();
            switch (cell.kind) {
            case ReportCell::Kind::Number:
                out << cell.text;
                break;
            case ReportCell::Kind::Text:
                out << jsonString(cell.text);
                break;
            case ReportCell::Kind::Null:
                out << "null";
                break;
            }
        }
        out << '}';
    });
    out << (r == 0 ? "]\n" : "\n]\n");
}

} // namespace strobe
