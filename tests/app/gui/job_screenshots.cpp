// SPDX-License-Identifier: MIT
// Renders the job view's screenshots (docs/JOBS.md, docs/USER_GUIDE.md) from the real main
// window: synthetic jobs of 2 ranks (no straggler) and 8 ranks (rank 5 arriving 3 ms late),
// the 8-rank one (named as tensorboard_trace_handler names its files, so the headings carry the
// hosts) with the Overview and the Findings tab on the job, zoomed onto one step with a
// collective selected, then rank 5 expanded. Not a test: `job_screenshots OUTDIR` (offscreen
// platform).
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "model/job/job.h"
#include "widgets/panels/rankspanel.h"
#include "widgets/timeline/jobview.h"
#include "widgets/timeline/timelineview.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace strobe;

namespace {

void settle() {
    for (int i = 0; i < 8; ++i) {
        QCoreApplication::processEvents();
        QEventLoop loop;
        QTimer::singleShot(40, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

bool save(QWidget& w, const QString& path) {
    settle();
    const bool ok = w.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
    return ok;
}

bool openJob(MainWindow& w, const QString& folder) {
    QEventLoop loop;
    bool ok = false;
    QObject::connect(&w, &MainWindow::jobLoadFinished, &loop, [&](bool opened) {
        ok = opened;
        loop.quit();
    });
    w.openJob({folder});
    loop.exec();
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: job_screenshots OUTDIR\n");
        return 2;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    QTemporaryDir dir;
    const QString two = dir.filePath(QStringLiteral("job-2"));
    const QString eight = dir.filePath(QStringLiteral("job-8"));
    kinetosynth::KinetoJobOptions o;
    o.events = 20'000;
    o.ranks = 2;
    std::string error;
    bool ok = kinetosynth::writeKinetoJob(two.toStdString(), o, &error);
    o.ranks = 8;
    o.straggler = 5;
    o.delayNs = 3'000'000;
    ok = ok && kinetosynth::writeKinetoJob(eight.toStdString(), o, &error);
    // HOST_PID.TIMESTAMP.pt.trace.json.gz: ranks 0-3 on node-a, 4-7 on node-b.
    for (std::uint32_t r = 0; ok && r < o.ranks; ++r)
        ok =
            QDir(eight).rename(QString::fromStdString(kinetosynth::jobFileName(r, true)),
                               QStringLiteral("%1_%2.1733350000000000000.pt.trace.json.gz")
                                   .arg(r < 4 ? QStringLiteral("node-a") : QStringLiteral("node-b"))
                                   .arg(41000 + r));
    if (!ok) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
    MainWindow w(&settings);
    w.resize(1600, 1000);
    w.show();
    if (!openJob(w, two))
        return 1;
    ok &= save(w, out + QStringLiteral("/job-2-ranks.png"));
    if (!openJob(w, eight))
        return 1;
    ok &= save(w, out + QStringLiteral("/job-8-ranks.png"));
    // The Overview on the job: the verdict, the headline, the links; then the Findings tab.
    auto* overview = w.findChild<QDockWidget*>(QStringLiteral("overviewDock"));
    auto* findings = w.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
    if (!overview || !findings)
        return 1;
    overview->show();
    overview->raise();
    ok &= save(w, out + QStringLiteral("/job-overview.png"));
    w.showFinding(0);
    ok &= save(w, out + QStringLiteral("/job-findings.png"));
    w.findChild<QDockWidget*>(QStringLiteral("ranksDock"))->raise();
    // One step of the 8-rank job, its third collective selected: the peers highlighted, each
    // rank's wait for rank 5 in red, the per-rank table under the view.
    JobCanvas* canvas = w.jobView()->canvas();
    const JobAnalysis* a = canvas->analysis();
    if (!a || a->timings.size() < 3 || !a->timings[2].step)
        return 1;
    const RankSummary& rank0 = canvas->job()->ranks.front();
    for (const RankStep& s : rank0.steps)
        if (s.number == *a->timings[2].step)
            canvas->setView(
                {s.host.start - s.host.duration() / 20, s.host.end + s.host.duration() / 20});
    canvas->selectCollective(2);
    ok &= save(w, out + QStringLiteral("/job-collective.png"));
    // Rank 5 expanded to its full lanes (its trace loaded), under the same zoom.
    canvas->selectCollective(std::nullopt);
    emit canvas->rankActivated(5);
    while (!w.jobView()->rankTimeline(5))
        settle();
    w.jobView()->rankTimeline(5)->waitForLevelOfDetail();
    ok &= save(w, out + QStringLiteral("/job-expanded.png"));
    return ok ? 0 : 1;
}
