// SPDX-License-Identifier: MIT
#pragma once

// Ordered JSON for strobe-cli (keys appear in the order written, as the README documents them);
// tables go through the model's ReportTable (reporttable.h).

#include "app/cli/commands.h"

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

private:
    void separate();
    QTextStream& m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

// Flushes `io.out` and checks that everything written to it arrived (a full disk, a closed
// pipe, a device that refuses writes). Returns `status` when it did; otherwise prints one
// sentence on `io.err` and returns 1, so no command loses its output silently.
int finishOutput(Io io, int status);

} // namespace strobe::cli
