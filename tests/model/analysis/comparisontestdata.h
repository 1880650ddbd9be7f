// SPDX-License-Identifier: MIT
#pragma once

// The comparison tests' traces: the known pair (tests/fixtures/comparisonfixtures.h) and the
// sample before and after its data-loader fix, each written and loaded once per program.

#include "formats/nsys/synth/sampletrace.h"
#include "formats/open.h"
#include "model/trace.h"
#include "tests/fixtures/comparisonfixtures.h"

#include <QTemporaryDir>
#include <memory>

namespace strobe::test {

inline QTemporaryDir& comparisonDir() {
    static QTemporaryDir dir;
    return dir;
}

inline std::shared_ptr<const Trace> loadShared(const QString& path) {
    LoadResult r = loadTrace(path);
    return std::shared_ptr<const Trace>(std::move(r.trace));
}

inline QString pairPath(fixtures::PairSide side) {
    const QString path =
        comparisonDir().filePath(side == fixtures::PairSide::A ? QStringLiteral("pair-a.sqlite")
                                                               : QStringLiteral("pair-b.sqlite"));
    std::string error;
    if (!QFile::exists(path))
        fixtures::writeComparisonSide(path.toStdString(), side, &error);
    return path;
}

inline QString samplePath(sample::SampleVariant v) {
    const QString path = comparisonDir().filePath(v == sample::SampleVariant::After
                                                      ? QStringLiteral("sample-after.sqlite")
                                                      : QStringLiteral("sample-before.sqlite"));
    std::string error;
    if (!QFile::exists(path))
        sample::writeSampleTrace(path.toStdString(), &error, v);
    return path;
}

} // namespace strobe::test
