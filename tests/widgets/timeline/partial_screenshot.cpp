// SPDX-License-Identifier: MIT
// The picture of a partial GPU picture (docs/TIMELINE.md): the first preview of a synthetic
// trace of a million events read in sampled passes, one block of GPU rows in 16, drawn hatched
// under its banner.
//   partial_screenshot OUT.png
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QPixmap>
#include <QTemporaryDir>
#include <cstdio>

using namespace strobe;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() != 2) {
        std::fprintf(stderr, "usage: partial_screenshot OUT.png\n");
        return 2;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions so;
    so.events = 1'000'000;
    std::string error;
    if (!synth::writeSynthTrace(path.toStdString(), so, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    std::shared_ptr<const Trace> first;
    LoadOptions o;
    o.previewMinRows = 0;
    o.gpuSampleMinRows = 0;
    o.preview = [&](std::unique_ptr<Trace> t) {
        if (!first && t->metadata().gpuSampleStride > 1)
            first = std::move(t);
    };
    const LoadResult r = loadTrace(path, o);
    if (!r.ok() || !first) {
        std::fprintf(stderr, "no partial picture: %s\n", qPrintable(r.error));
        return 1;
    }
    ViewState state;
    state.setTrace(first);
    TimelineView view(&state);
    view.resize(1400, 560);
    view.show();
    view.waitForLevelOfDetail(); // summaries and utilisation, or the strips say "Computing…"
    QApplication::processEvents();
    if (!view.grab().save(args[1])) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(args[1]));
        return 1;
    }
    std::printf("%s: 1/%u of the GPU rows\n", qPrintable(args[1]),
                first->metadata().gpuSampleStride);
    return 0;
}
