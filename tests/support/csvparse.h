// SPDX-License-Identifier: MIT
#pragma once

// An RFC 4180 reader for tests that check CSV output (the CLI's, the panels' exports) field by
// field, independent of the code that wrote it.

#include <QString>
#include <QStringList>
#include <vector>

namespace strobe::test {

// Quoted fields may hold commas, quotes ("") and line breaks; records end in CRLF. Returns
// records as field lists.
inline std::vector<QStringList> parseCsv(const QString& text) {
    std::vector<QStringList> records;
    QStringList fields;
    QString field;
    bool quoted = false, inRecord = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        inRecord = true;
        if (quoted) {
            if (c == u'"') {
                if (i + 1 < text.size() && text[i + 1] == u'"') {
                    field += u'"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            fields << field;
            field.clear();
        } else if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n') {
            fields << field;
            field.clear();
            records.push_back(fields);
            fields.clear();
            inRecord = false;
            ++i;
        } else {
            field += c;
        }
    }
    if (inRecord) {
        fields << field;
        records.push_back(fields);
    }
    return records;
}

} // namespace strobe::test
