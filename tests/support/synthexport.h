// SPDX-License-Identifier: MIT
#pragma once

#include "formats/nsys/synth/synthtrace.h"

#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <gtest/gtest.h>
#include <string>

namespace strobe::test {

// Writes a synthetic nsys export of about `events` events (seed `seed`) as `name` in `dir` and
// returns its path; a failure to write is a test failure, and the path is then empty.
inline QString writeSynth(const QTemporaryDir& dir, std::uint64_t events, std::uint64_t seed,
                          const QString& name = QStringLiteral("synth.sqlite")) {
    const QString path = dir.filePath(name);
    synth::SynthOptions so;
    so.events = events;
    so.seed = seed;
    std::string error;
    if (!synth::writeSynthTrace(path.toStdString(), so, &error)) {
        ADD_FAILURE() << "cannot write " << path.toStdString() << ": " << error;
        return {};
    }
    return path;
}

} // namespace strobe::test
