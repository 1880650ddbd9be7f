// SPDX-License-Identifier: MIT
#include "bench/scale/scalecommon.h"

#include "formats/nsys/synth/synthtrace.h"

#include <QFile>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace strobe::bench {

double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double pos = p / 100.0 * double(v.size() - 1);
    const auto i = std::size_t(pos);
    const double frac = pos - double(i);
    return i + 1 < v.size() ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

double seconds(const QElapsedTimer& t) {
    return double(t.nsecsElapsed()) / 1e9;
}

// The synthetic trace of `events` rows, generated once and kept in /tmp.
QString ensureTrace(std::uint64_t events, std::uint64_t seed) {
    const QString path = QStringLiteral("/tmp/strobe-scale-%1-%2.sqlite").arg(events).arg(seed);
    if (QFile::exists(path))
        return path;
    std::printf("generating %s ...\n", qPrintable(path));
    std::fflush(stdout);
    QElapsedTimer t;
    t.start();
    synth::SynthOptions o;
    o.events = events;
    o.seed = seed;
    std::string error;
    if (!synth::writeSynthTrace(path.toStdString(), o, &error)) {
        std::fprintf(stderr, "cannot generate the trace: %s\n", error.c_str());
        std::exit(1);
    }
    std::printf("generated in %.1f s\n", seconds(t));
    return path;
}

// Reads the whole file once so that neither the raw scan nor the load pays for a cold cache.
void warmFileCache(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return;
    std::vector<char> buf(8 << 20);
    while (f.read(buf.data(), qint64(buf.size())) > 0) {
    }
}

std::uint64_t eventCount(const Trace& t) {
    std::uint64_t n = 0;
    for (const Lane& l : t.lanes())
        n += l.size();
    return n;
}

} // namespace strobe::bench
