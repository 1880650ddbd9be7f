// SPDX-License-Identifier: MIT
#include "model/analysis/reporttable.h"

#include <QStringBuilder>

namespace strobe {

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

void writeCsv(QTextStream& out, const ReportTable& table) {
    csvRecord(out, table.columns);
    QStringList fields;
    for (const auto& row : table.rows) {
        fields.clear();
        for (const ReportCell& c : row)
            fields << (c.kind == ReportCell::Kind::Null ? QString() : c.text);
        csvRecord(out, fields);
    }
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
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        out << (r ? ",\n {" : "\n {");
        const auto& row = table.rows[r];
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
    }
    out << (table.rows.empty() ? "]\n" : "\n]\n");
}

} // namespace strobe
