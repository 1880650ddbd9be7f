// SPDX-License-Identifier: MIT
// The time strobe-cli render takes after the load, for a 1920x1080 PNG of a whole trace:
//   bench_render TRACE [OUT.png]
// It draws as render does (a TimelineLod built on this thread, then writeTimelinePicture), with
// the rows shrunk to fit as --fit does, and prints one JSON line: load, level of detail, picture
// and their sum after the load, in seconds, and the CPU time of that sum.
#include "formats/open.h"
#include "model/lod/timelinelod.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/timelinepicture.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <cstdio>
#include <ctime>

using namespace strobe;

namespace {
// CPU time of this thread: on a shared machine it says what the work costs, the wall time what
// it took among the other jobs.
double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}
} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_render TRACE [OUT.png]\n");
        return 2;
    }
    QTemporaryDir tmp;
    const QString out = args.size() > 2 ? args[2] : tmp.filePath(QStringLiteral("bench.png"));
    QElapsedTimer timer;
    timer.start();
    LoadResult r = loadTrace(args[1]);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    const double loadS = timer.nsecsElapsed() / 1e9;
    const std::shared_ptr<const Trace> trace(std::move(r.trace));

    timer.restart();
    const double cpuStart = threadCpuSeconds();
    LaneLayout layout;
    layout.setTrace(trace.get());
    PictureTrace picture{&layout, nullptr, trace->timeRange().start, 0, {}};
    PictureOptions o;
    o.window = {0, trace->timeRange().duration()};
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9.0);
    o.font = font;
    o.footer = QStringLiteral("bench");
    for (int h = LaneLayout::kRowHeight;
         h > LaneLayout::kMinRowHeight && pictureLanesHeight({&picture, 1}) > pictureLanesRoom(o);
         --h)
        layout.setRowHeight(h - 1);
    const std::atomic<bool> cancelled{false};
    auto lod = std::make_shared<TimelineLod>(trace);
    lod->build(cancelled);
    TimelineGeometry geometry;
    geometry.setTrace(trace.get(), lod);
    picture.geometry = &geometry;
    const double lodS = timer.nsecsElapsed() / 1e9;

    timer.restart();
    if (const QString error = writeTimelinePicture(out, PictureFormat::Png, o, {&picture, 1});
        !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const double pictureS = timer.nsecsElapsed() / 1e9;
    const double cpuS = threadCpuSeconds() - cpuStart;
    std::uint64_t events = 0;
    for (const Lane& l : trace->lanes())
        events += l.size();
    std::printf("{\"events\": %llu, \"load_s\": %.3f, \"lod_s\": %.3f, \"picture_s\": %.3f, "
                "\"after_load_s\": %.3f, \"after_load_cpu_s\": %.3f, \"row_height\": %d}\n",
                static_cast<unsigned long long>(events), loadS, lodS, pictureS, lodS + pictureS,
                cpuS, layout.rowHeight());
    return 0;
}
