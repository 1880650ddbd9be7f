// SPDX-License-Identifier: MIT
#include "app/cli/output.h"

#include "model/reports/reporttable.h"

#include <QFileDevice>
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
    m_out << jsonString(k) << ": ";
    m_afterKey = true;
}

void JsonWriter::value(const QString& s) {
    separate();
    m_out << jsonString(s);
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

int finishOutput(Io io, int status) {
    io.out.flush();
    const auto* file = qobject_cast<const QFileDevice*>(io.out.device());
    const bool fileFailed = file && file->error() != QFileDevice::NoError;
    if (io.out.status() == QTextStream::Ok && !fileFailed)
        return status;
    QString where = QStringLiteral("the output");
    if (file)
        where = file->fileName().isEmpty() ? QStringLiteral("standard output")
                                           : u'\'' % file->fileName() % u'\'';
    QString reason = file && fileFailed ? file->errorString() : QString();
    if (reason.isEmpty() || reason == QLatin1String("Unknown error"))
        reason = QStringLiteral("the write failed");
    io.err << "strobe-cli: cannot write " << where << ": " << reason
           << " (the output is incomplete).\n";
    io.err.flush();
    return 1;
}

} // namespace strobe::cli
