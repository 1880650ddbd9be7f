// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>
#include <vector>

namespace strobe {

// One already-formatted value of a machine-readable table. Numbers are written as they are
// (plain, '.' decimal point), text is quoted as CSV or JSON requires, null is an empty CSV
// field and JSON null.
struct ReportCell {
    enum class Kind : std::uint8_t { Number, Text, Null };
    Kind kind = Kind::Null;
    QString text;
    static ReportCell number(std::int64_t v) { return {Kind::Number, QString::number(v)}; }
    static ReportCell number(std::uint64_t v) { return {Kind::Number, QString::number(v)}; }
    static ReportCell number(double v, int decimals) {
        return {Kind::Number, QString::number(v, 'f', decimals)};
    }
    static ReportCell string(QString s) { return {Kind::Text, std::move(s)}; }
    static ReportCell null() { return {}; }
};

// A table with named columns: what strobe-cli prints and the GUI exports.
struct ReportTable {
    QStringList columns;
    std::vector<std::vector<ReportCell>> rows;
};

// A CSV field, quoted when it holds a comma, quote, CR or LF (RFC 4180).
QString csvQuoted(const QString& field);
// A JSON string literal with quotes and escapes.
QString jsonString(const QString& s);

// RFC 4180: header then one record per row, CRLF line ends, fields quoted when needed.
void writeCsv(QTextStream& out, const ReportTable& table);
QString toCsv(const ReportTable& table);
// A JSON array of objects whose keys are the column names, in column order; ends in '\n'.
void writeJson(QTextStream& out, const ReportTable& table);

} // namespace strobe
