// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>
#include <functional>
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

// A table with named columns: what strobe-cli prints and the GUI exports. Either materialised
// (`rows`) or streamed: `fillRow` makes row i into a reused vector while the table is written,
// so that writing millions of rows never holds them all (strobe-cli kernels).
struct ReportTable {
    QStringList columns;
    std::vector<std::vector<ReportCell>> rows;
    std::size_t streamedRows = 0;
    std::function<void(std::size_t, std::vector<ReportCell>&)> fillRow; // set: streamed
    std::size_t rowCount() const { return fillRow ? streamedRows : rows.size(); }
    // Calls fn(const std::vector<ReportCell>&) for each row in order.
    template <typename Fn> void forEachRow(Fn&& fn) const {
        if (!fillRow) {
            for (const auto& r : rows)
                fn(r);
            return;
        }
        std::vector<ReportCell> row;
        for (std::size_t i = 0; i < streamedRows; ++i) {
            row.clear();
            fillRow(i, row);
            fn(row);
        }
    }
};

// Untrusted text for a terminal: C0 controls, DEL and C1 controls (U+0080..U+009F) become
// "\xHH", so escape sequences in a file's names never reach the terminal. `s` itself (shared,
// not copied) when it has none.
QString escapeControls(const QString& s);
// The same, but line feeds stay (a message of several lines shown as plain text).
QString escapeControlsKeepingLineFeeds(const QString& s);
// A CSV text cell made safe for spreadsheets (OWASP CSV injection): controls escaped as above
// except a line feed (RFC 4180 quotes it), and a cell starting with = + - or @ prefixed with a
// single quote. For text cells only: numbers (negative ones included) are written as they are.
QString csvSafeText(const QString& s);
// A CSV field, quoted when it holds a comma, quote, CR or LF (RFC 4180).
QString csvQuoted(const QString& field);
// A JSON string literal with quotes and escapes (controls, DEL and C1 as \u00XX).
QString jsonString(const QString& s);

// RFC 4180: header then one record per row, CRLF line ends, fields quoted when needed; text
// cells through csvSafeText.
void writeCsv(QTextStream& out, const ReportTable& table);
QString toCsv(const ReportTable& table);
// A JSON array of objects whose keys are the column names, in column order; ends in '\n'.
void writeJson(QTextStream& out, const ReportTable& table);

} // namespace strobe
