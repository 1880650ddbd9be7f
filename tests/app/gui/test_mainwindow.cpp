// SPDX-License-Identifier: MIT
// The main window as a user meets it: open, fail, cancel, reopen, remember.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "app/gui/traceloadjob.h"
#include "formats/nsys/synth/synthtrace.h"
#include "model/analysis/eventsearch.h"
#include "model/itemmodels/findingtablemodel.h"
#include "model/itemmodels/kernelsummarymodel.h"
#include "model/itemmodels/kerneltablemodel.h"
#include "model/job/jobopen.h"
#include "model/trace.h"
#include "render/paint/headerpainter.h"
#include "render/paint/timelinepicture.h"
#include "tests/fixtures/hostilefixtures.h"
#include "tests/support/kinetoscan.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"
#include "widgets/findinganalysis.h"
#include "widgets/panels/findingspanel.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/overviewpanel.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <cmath>
#include <optional>

using namespace strobe;

namespace {

QString fixture(const char* name) {
    return QString::fromStdString(test::fixturePath(name));
}

class MainWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        settings = std::make_unique<AppSettings>(dir.filePath(QStringLiteral("strobe.ini")));
        window = std::make_unique<MainWindow>(settings.get());
        window->show();
    }

    // Opens `path` and waits for the load to finish; returns (ok, error).
    std::pair<bool, QString> open(const QString& path) {
        QSignalSpy spy(window.get(), &MainWindow::loadFinished);
        window->openFile(path);
        EXPECT_TRUE(spy.wait(30000));
        if (spy.isEmpty()) // (failed above; no crash on the empty spy)
            return {false, QString()};
        return {spy.at(0).at(0).toBool(), spy.at(0).at(1).toString()};
    }

    QMessageBox* errorBox() const { return window->findChild<QMessageBox*>(); }

    QTemporaryDir dir;
    std::unique_ptr<AppSettings> settings;
    std::unique_ptr<MainWindow> window;
};

} // namespace

TEST_F(MainWindowTest, OpeningARealFixtureFillsTheLanes) {
    const auto [ok, error] = open(fixture("nsys2024.5-cloverleaf.sqlite"));
    ASSERT_TRUE(ok) << error.toStdString();
    ASSERT_NE(window->trace(), nullptr);
    EXPECT_EQ(window->trace()->counts().kernels, 1312u);
    EXPECT_EQ(window->traceTitle(), QStringLiteral("nsys2024.5-cloverleaf.sqlite"));
    EXPECT_EQ(window->viewState()->visibleRange(), window->trace()->timeRange());
    EXPECT_GE(window->timeline()->laneLayout().rows().size(), window->trace()->lanes().size());
    EXPECT_TRUE(window->windowTitle().startsWith(QStringLiteral("nsys2024.5-cloverleaf.sqlite")));
    // The panels compute on workers after the hand-over; their rows follow.
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->kernelTable()->isComputing(); }, 30000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->statistics()->isComputing(); }, 30000));
    EXPECT_EQ(window->kernelTable()->model()->rowCount(), 1312);
    EXPECT_GT(window->statistics()->kernelModel()->rowCount(), 0);
}

TEST_F(MainWindowTest, EveryBadInputShowsTheErrorAndKeepsThePreviousTrace) {
    ASSERT_TRUE(open(fixture("nsys2025.5-cuda-graphs.sqlite")).first);
    const Trace* good = window->trace();
    // The bad files in a folder of their own: the test's folder also holds the settings file,
    // whose "[General]" a folder's reading takes for a JSON trace once it is written.
    const QString badDir = dir.filePath(QStringLiteral("bad"));
    ASSERT_TRUE(QDir().mkpath(badDir));
    QFile text(badDir + QStringLiteral("/notes.txt"));
    ASSERT_TRUE(text.open(QIODevice::WriteOnly));
    text.write("not a trace\n");
    text.close();
    QFile rep(badDir + QStringLiteral("/run.nsys-rep"));
    ASSERT_TRUE(rep.open(QIODevice::WriteOnly));
    rep.write("NVIDIA Tegra Profiler Report 1.\x01\x02");
    rep.close();
    QFile empty(badDir + QStringLiteral("/empty.sqlite"));
    ASSERT_TRUE(empty.open(QIODevice::WriteOnly));
    empty.close();
    // A folder is a job when it holds anything that reads as a trace; this one holds nothing
    // that does (an empty file is no SQLite database), so it is opened as a file, and refused.
    ASSERT_TRUE(findJobFiles(badDir).isEmpty());
    for (const QString& bad : {dir.filePath(QStringLiteral("missing.sqlite")), badDir,
                               text.fileName(), rep.fileName(), empty.fileName()}) {
        const auto [ok, error] = open(bad);
        EXPECT_FALSE(ok) << bad.toStdString();
        ASSERT_FALSE(error.isEmpty());
        QMessageBox* box = errorBox();
        ASSERT_NE(box, nullptr) << bad.toStdString();
        EXPECT_EQ(box->text(), error);
        box->close();
        QCoreApplication::processEvents();
        EXPECT_EQ(window->trace(), good) << "the open trace stays open";
        EXPECT_EQ(window->traceTitle(), QStringLiteral("nsys2025.5-cuda-graphs.sqlite"));
    }
}

TEST_F(MainWindowTest, CancellingALoadLeavesTheWindowUsable) {
    ASSERT_TRUE(open(fixture("nsys2025.5-cuda-graphs.sqlite")).first);
    const Trace* before = window->trace();
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->openFile(fixture("nsys2026.2-h100-2gpu-nvtx.sqlite"));
    EXPECT_TRUE(window->isLoading());
    window->cancelLoading();
    ASSERT_TRUE(spy.wait(30000));
    // Cancelled right after the start, long before the 30,000-event file is read: no trace.
    EXPECT_FALSE(spy.at(0).at(0).toBool()) << "the load ran to its end despite the cancel";
    EXPECT_TRUE(spy.at(0).at(1).toString().isEmpty()) << "a cancel is not an error";
    EXPECT_EQ(window->trace(), before);
    EXPECT_EQ(errorBox(), nullptr);
    EXPECT_FALSE(window->isLoading());
    ASSERT_TRUE(open(fixture("nsys2024.5-cloverleaf.sqlite")).first);
    EXPECT_EQ(window->trace()->counts().kernels, 1312u);
}

TEST_F(MainWindowTest, RecentFilesAndTheLastViewPersist) {
    const QString path = fixture("nsys2024.5-cloverleaf.sqlite");
    ASSERT_TRUE(open(path).first);
    const TimeRange full = window->trace()->timeRange();
    const TimeRange zoomed{full.start + full.duration() / 4, full.start + full.duration() / 2};
    window->viewState()->setVisibleRange(zoomed);
    window->close();
    settings->sync();

    AppSettings reread(dir.filePath(QStringLiteral("strobe.ini")));
    ASSERT_FALSE(reread.recentFiles().isEmpty());
    EXPECT_EQ(reread.recentFiles().front(), QFileInfo(path).absoluteFilePath());
    MainWindow second(&reread);
    QSignalSpy spy(&second, &MainWindow::loadFinished);
    second.openFile(path);
    ASSERT_TRUE(spy.wait(30000));
    EXPECT_EQ(second.viewState()->visibleRange(), zoomed) << "reopening restores the last view";
}

TEST_F(MainWindowTest, TheSampleTraceOpensWithoutAFile) {
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->openSample();
    ASSERT_TRUE(spy.wait(30000));
    ASSERT_TRUE(spy.at(0).at(0).toBool()) << spy.at(0).at(1).toString().toStdString();
    EXPECT_TRUE(window->traceTitle().startsWith(QStringLiteral("Sample")));
    EXPECT_GT(window->trace()->counts().kernels, 1000u);
    EXPECT_TRUE(settings->recentFiles().isEmpty()) << "the sample is not a recent file";
}

TEST_F(MainWindowTest, TheSampleIsWrittenAfreshOverAnOlderFile) {
    // A file left at the sample's path by an older build of the same version (here another
    // trace altogether) must not be what the sample shows.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    QDir().mkpath(dir);
    const QString path =
        dir + QStringLiteral("/strobe-sample-training-loop-" STROBE_VERSION ".sqlite");
    QFile::remove(path);
    ASSERT_TRUE(QFile::copy(fixture("nsys2024.5-cloverleaf.sqlite"), path));
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->openSample();
    ASSERT_TRUE(spy.wait(30000));
    ASSERT_TRUE(spy.at(0).at(0).toBool()) << spy.at(0).at(1).toString().toStdString();
    const Trace& t = *window->trace();
    ASSERT_EQ(t.processes().size(), 1u);
    EXPECT_EQ(t.processLabel(0), QStringLiteral("python train.py [4242]"));
}

TEST_F(MainWindowTest, ABigTraceShowsItsGpuSideFirst) {
    window->setPreviewMinRows(0);
    QSignalSpy traces(window->viewState(), &ViewState::traceChanged);
    std::vector<std::size_t> laneCounts;
    QObject::connect(window->viewState(), &ViewState::traceChanged, window.get(),
                     [&] { laneCounts.push_back(window->trace()->lanes().size()); });
    ASSERT_TRUE(open(fixture("nsys2024.5-cloverleaf.sqlite")).first);
    ASSERT_EQ(traces.size(), 2) << "the GPU side, then the whole trace";
    // The GPU side: one lane per stream and kind of GPU work (CloverLeaf: kernels and memcpys
    // of stream 7, no memsets).
    const std::string p = test::fixturePath("nsys2024.5-cloverleaf.sqlite");
    const auto gpuLanes = std::size_t(test::queryInt(
        p, "SELECT (SELECT count(*) FROM (SELECT DISTINCT deviceId, streamId FROM "
           "CUPTI_ACTIVITY_KIND_KERNEL)) + (SELECT count(*) FROM (SELECT DISTINCT deviceId, "
           "streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind < 11))"));
    ASSERT_FALSE(test::hasTable(p, "CUPTI_ACTIVITY_KIND_MEMSET"));
    EXPECT_EQ(laneCounts[0], gpuLanes);
    EXPECT_EQ(gpuLanes, 2u);
    EXPECT_EQ(laneCounts[1], window->trace()->lanes().size());
    EXPECT_GT(laneCounts[1], laneCounts[0]);
    EXPECT_EQ(window->traceTitle(), QStringLiteral("nsys2024.5-cloverleaf.sqlite"));
}

TEST_F(MainWindowTest, ABigTraceShowsItsFirstGpuRowsThenItsGpuSideThenAll) {
    const QString path = dir.filePath(QStringLiteral("big.sqlite"));
    synth::SynthOptions so;
    so.events = 300'000;
    std::string error;
    ASSERT_TRUE(synth::writeSynthTrace(path.toStdString(), so, &error)) << error;
    window->setPreviewMinRows(0);
    window->setEarlyPreviewAfter(std::chrono::milliseconds(0));
    std::vector<TraceStage> stages;
    std::vector<QString> titles;
    std::optional<TimeRange> zoomed;
    bool lodAtHandOver = false;
    QObject::connect(window->viewState(), &ViewState::traceChanged, window.get(), [&] {
        stages.push_back(window->trace()->metadata().stage);
        titles.push_back(window->traceTitle());
        // Its own build of 300,000 events would take tens of milliseconds more.
        lodAtHandOver = window->timeline()->isLevelOfDetailReady();
        if (!zoomed) { // the user zooms in on the first preview
            const TimeRange all = window->trace()->timeRange();
            zoomed = TimeRange{all.start, all.start + all.duration() / 10};
            QTimer::singleShot(0, window.get(),
                               [&] { window->viewState()->setVisibleRange(*zoomed, true); });
        }
    });
    ASSERT_TRUE(open(path).first);
    ASSERT_EQ(stages, (std::vector<TraceStage>{TraceStage::GpuSideBegun, TraceStage::GpuSide,
                                               TraceStage::Complete}));
    EXPECT_EQ(titles[0], QStringLiteral("big.sqlite (the first of the GPU side; reading on…)"));
    EXPECT_EQ(titles[1],
              QStringLiteral("big.sqlite (GPU side; reading launch details and the CPU side…)"));
    EXPECT_EQ(titles[2], QStringLiteral("big.sqlite"));
    // The whole trace came with its level of detail, built by the load's worker.
    EXPECT_TRUE(lodAtHandOver);
    // Where the user went on the first preview stays through the second and the whole trace.
    EXPECT_EQ(window->viewState()->visibleRange(), *zoomed);
}

TEST_F(MainWindowTest, AFailureAfterThePreviewBringsBackThePreviousTrace) {
    ASSERT_TRUE(open(fixture("nsys2025.5-cuda-graphs.sqlite")).first);
    const Trace* before = window->trace();
    const TimeRange beforeView = window->viewState()->visibleRange();
    // GPU tables intact, the CPU side broken: the load fails after its preview was shown.
    const QString broken = dir.filePath(QStringLiteral("broken-runtime.sqlite"));
    ASSERT_TRUE(QFile::copy(fixture("nsys2024.5-cloverleaf.sqlite"), broken));
    QFile::setPermissions(broken, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    test::exec(broken.toStdString(),
               "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME; "
               "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER);");
    window->setPreviewMinRows(0);
    window->kernelTable()->setNameFilter(QStringLiteral("graph.*kernel"), true);
    window->statistics()->setNameFilter(StatisticsWidget::NvtxTab, QStringLiteral("step"));
    QSignalSpy traces(window->viewState(), &ViewState::traceChanged);
    const auto [ok, error] = open(broken);
    EXPECT_FALSE(ok);
    // The previous trace comes back with its kernel and statistics filters.
    EXPECT_EQ(window->kernelTable()->nameFilter(), QStringLiteral("graph.*kernel"));
    EXPECT_TRUE(window->kernelTable()->nameFilterIsRegex());
    EXPECT_EQ(window->statistics()->nameFilters()[StatisticsWidget::NvtxTab].text(),
              QStringLiteral("step"));
    EXPECT_TRUE(error.contains(QStringLiteral("lacks the required column"))) << error.toStdString();
    EXPECT_EQ(traces.size(), 2) << "the preview, then the previous trace again";
    EXPECT_EQ(window->trace(), before);
    EXPECT_EQ(window->viewState()->visibleRange(), beforeView);
    EXPECT_EQ(window->traceTitle(), QStringLiteral("nsys2025.5-cuda-graphs.sqlite"));
}

// Issue #14 item 12: a kernel or statistics filter typed for one trace does not carry over,
// unnoticed, to the next one; a failed open leaves them (and the trace) as they were.
TEST_F(MainWindowTest, OpeningAnotherTraceClearsTheNameFilters) {
    ASSERT_TRUE(open(fixture("nsys2024.5-cloverleaf.sqlite")).first);
    KernelTableWidget* table = window->kernelTable();
    table->setNameFilter(QStringLiteral("no-such-kernel"));
    StatisticsWidget* stats = window->statistics();
    for (int tab = 0; tab < StatisticsWidget::TabCount; ++tab)
        stats->setNameFilter(StatisticsWidget::Tab(tab), QStringLiteral("no-such-name"), true);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !table->isComputing(); }, 30000));
    EXPECT_EQ(table->model()->rowCount(), 0);
    EXPECT_FALSE(open(dir.filePath(QStringLiteral("missing.sqlite"))).first);
    errorBox()->close();
    EXPECT_EQ(table->nameFilter(), QStringLiteral("no-such-kernel"));
    EXPECT_EQ(stats->nameFilters()[StatisticsWidget::KernelsTab].text(),
              QStringLiteral("no-such-name"));

    const QString next = fixture("nsys2025.5-cuda-graphs.sqlite");
    ASSERT_TRUE(open(next).first);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !table->isComputing(); }, 30000));
    EXPECT_EQ(table->nameFilter(), QString());
    const auto kernels =
        test::queryInt(next.toStdString(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    ASSERT_GT(kernels, 0);
    EXPECT_EQ(table->model()->rowCount(), int(kernels));
    EXPECT_EQ(table->model()->totalKernels(), int(kernels));
    // The statistics tabs' filters are cleared too; each tab keeps its Regex choice.
    for (int tab = 0; tab < StatisticsWidget::TabCount; ++tab) {
        EXPECT_EQ(stats->nameFilters()[tab].text(), QString()) << tab;
        EXPECT_TRUE(stats->nameFilters()[tab].isRegex()) << tab;
    }
}

// Issue #14 item 8: after a double-click on a kernel row the timeline has the keyboard focus, so
// W zooms it at once; the row stays selected.
TEST_F(MainWindowTest, AJumpFromTheKernelTableFocusesTheTimeline) {
    ASSERT_TRUE(open(fixture("nsys2024.5-cloverleaf.sqlite")).first);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    KernelTableWidget* table = window->kernelTable();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !table->isComputing(); }, 30000));
    auto* dock = qobject_cast<QDockWidget*>(table->parentWidget());
    ASSERT_TRUE(dock);
    dock->raise();
    QApplication::processEvents();
    QTableView* view = table->view();
    view->setFocus();
    const QRect cell = view->visualRect(view->model()->index(2, 0));
    ASSERT_TRUE(cell.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    EXPECT_EQ(QApplication::focusWidget(), window->timeline()->canvas());
    EXPECT_TRUE(view->selectionModel()->isRowSelected(2, {}));
    const TimeRange before = window->viewState()->visibleRange();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
    EXPECT_LT(window->viewState()->visibleRange().duration(), before.duration());
}

TEST_F(MainWindowTest, ExportImageSavesTheCurrentViewAsPngOrSvg) {
    EXPECT_FALSE(window->exportImage(dir.filePath(QStringLiteral("none.png"))).isEmpty());
    ASSERT_TRUE(open(fixture("nsys2024.5-cloverleaf.sqlite")).first);
    TimelineView* view = window->timeline();
    // Zoomed to par_ranged2d_kernel [620811123, 622757710) (SQL: the longest kernel of the
    // trace), with 100 us either side; the OS runtime lanes hidden.
    const TimeRange visible{620'811'123 - 100'000, 622'757'710 + 100'000};
    window->viewState()->setVisibleRange(visible);
    for (std::uint32_t lane = 0; lane < window->trace()->lanes().size(); ++lane) {
        if (window->trace()->lane(lane).kind() == LaneKind::Osrt)
            view->setLaneHidden(lane, true);
    }
    const QString png = dir.filePath(QStringLiteral("view.png"));
    ASSERT_EQ(window->exportImage(png), QString());
    const QImage image(png);
    const QSize canvas = view->canvasSize();
    ASSERT_EQ(image.size(), QSize(kLaneHeaderWidth + canvas.width(),
                                  kTimeRulerHeight + canvas.height() + kPictureFooterHeight));
    const double pxPerNs = double(canvas.width()) / double(visible.duration());
    const int x0 = kLaneHeaderWidth + int(std::floor(100'000 * pxPerNs + 0.5));
    const int x1 =
        kLaneHeaderWidth + int(std::floor((622'757'710 - visible.start) * pxPerNs + 0.5));
    const TimelinePalette& pal = view->timelinePalette();
    const QRgb want =
        pal.eventColor(classifyKernel("par_ranged2d_kernel"), stableNameHash("par_ranged2d_kernel"))
            .rgb();
    int y = kTimeRulerHeight;
    while (y < image.height() && image.pixel((x0 + x1) / 2, y) != want)
        ++y;
    ASSERT_LT(y, image.height());
    for (int x = x0; x < x1; ++x)
        ASSERT_EQ(image.pixel(x, y), want) << x;
    EXPECT_NE(image.pixel(x0 - 1, y), want);
    EXPECT_NE(image.pixel(x1, y), want);
    // The row sits where the view draws it: the header column names the lanes it shows.
    const LayoutRow* row = view->rowAt(y - kTimeRulerHeight);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(window->trace()->lane(row->lane).kind(), LaneKind::Kernels);

    const QString svg = dir.filePath(QStringLiteral("view.svg"));
    ASSERT_EQ(window->exportImage(svg, QSize(1000, 500)), QString());
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    int rects = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"rect")
            ++rects;
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_GT(rects, 10);
    ASSERT_EQ(window->exportImage(png, QSize(800, 600)), QString());
    EXPECT_EQ(QImage(png).size(), QSize(800, 600));
    EXPECT_TRUE(window->exportImage(dir.filePath(QStringLiteral("view.bmp")))
                    .contains(QStringLiteral(".png or .svg")));
    EXPECT_TRUE(window->exportImage(dir.filePath(QStringLiteral("no/dir/view.png")))
                    .startsWith(QStringLiteral("Cannot write")));
}

TEST_F(MainWindowTest, APyTorchProfilerTraceOpensLikeAnExport) {
    const QString path =
        QString::fromStdString(test::kinetoFixturePath("hta-a100-nccl-ddp.json.gz"));
    const auto [ok, error] = open(path);
    ASSERT_TRUE(ok) << error.toStdString();
    EXPECT_EQ(window->trace()->metadata().format, QStringLiteral("kineto-json"));
    EXPECT_EQ(window->trace()->counts().kernels, 2700u);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->kernelTable()->isComputing(); }, 30000));
    EXPECT_EQ(window->kernelTable()->model()->rowCount(), 2700);
    // The Open dialog offers the Kineto names.
    for (const char* glob : {"*.json", "*.json.gz", "*.pt.trace.json", "*.pt.trace.json.gz"})
        EXPECT_TRUE(MainWindow::openFileFilter().contains(QLatin1String(glob))) << glob;
}

// Issue 16: hostile files. A view over an endless query shows its error; a trace with events at
// the ends of the int64 range opens and paints (the ruler once looped until memory ran out).
// Neither writes anything beside the file.
TEST_F(MainWindowTest, HostileFilesShowTheErrorOrOpenAndNothingIsWrittenBeside) {
    QTemporaryDir files;
    const QString view = files.filePath(QStringLiteral("view.sqlite"));
    const QString extreme = files.filePath(QStringLiteral("extreme.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("view-recursive-stringids", view.toStdString()));
    ASSERT_TRUE(fixtures::writeHostileCase("extreme-times", extreme.toStdString()));
    const QStringList before = QDir(files.path()).entryList(QDir::Files | QDir::Hidden);
    const auto [ok, error] = open(view);
    EXPECT_FALSE(ok);
    QMessageBox* box = errorBox();
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->text(), error);
    EXPECT_TRUE(error.contains(QStringLiteral("'view.sqlite'"))) << error.toStdString();
    box->close();
    QCoreApplication::processEvents();
    const auto [ok2, error2] = open(extreme);
    ASSERT_TRUE(ok2) << error2.toStdString();
    EXPECT_EQ(window->trace()->timeRange(), (TimeRange{kMinTime, kMaxTime}));
    const QImage shot = window->grab().toImage(); // paints timeline and ruler at full zoom-out
    EXPECT_FALSE(shot.isNull());
    window->close();
    EXPECT_EQ(QDir(files.path()).entryList(QDir::Files | QDir::Hidden), before);
}

// The loader reports progress every 16k rows; the job passes on at most one value per 100 ms
// (each repaints the status bar's progress bar at once) and always the final 1000.
TEST(TraceLoadJob, ProgressIsThrottledAndEndsAtAThousand) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions o;
    o.events = 400'000; // 24 reports of the loader
    std::string error;
    ASSERT_TRUE(synth::writeSynthTrace(path.toStdString(), o, &error)) << error;
    TraceLoadJob job(path);
    std::vector<int> values;
    QObject::connect(&job, &TraceLoadJob::progress, [&](int p) { values.push_back(p); });
    QSignalSpy finished(&job, &TraceLoadJob::finished);
    QElapsedTimer clock;
    clock.start();
    job.start();
    ASSERT_TRUE(finished.wait(60000));
    const qint64 elapsedMs = clock.elapsed();
    ASSERT_NE(finished.at(0).at(0).value<std::shared_ptr<const Trace>>(), nullptr);
    ASSERT_FALSE(values.empty());
    EXPECT_EQ(values.back(), 1000);
    EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
    EXPECT_LE(qint64(values.size()), 2 + elapsedMs / 100) << values.size() << " in " << elapsedMs;
}

TEST(TraceLoadJob, ALevelOfDetailCancelledWhileBuiltIsNone) {
    LoadResult r = loadTrace(fixture("nsys2024.5-cloverleaf.sqlite"));
    ASSERT_NE(r.trace, nullptr);
    const std::shared_ptr<const Trace> trace(std::move(r.trace));
    const std::atomic<bool> cancelled{true}, going{false};
    EXPECT_EQ(buildLevelOfDetail(trace, 1'000, cancelled), nullptr);
    const std::shared_ptr<TimelineLod> lod = buildLevelOfDetail(trace, 1'000, going);
    ASSERT_NE(lod, nullptr);
    EXPECT_TRUE(lod->isComplete());
    EXPECT_EQ(lod->trace(), trace.get());
}

// After a load that sent a preview, the job builds the trace's level of detail on its worker
// and sends it just before the trace; without a preview, or unasked, it sends none.
TEST(TraceLoadJob, ABigTraceComesWithItsLevelOfDetail) {
    const QString path = fixture("nsys2024.5-cloverleaf.sqlite");
    for (const bool previewed : {true, false}) {
        for (const bool asked : {true, false}) {
            TraceLoadJob job(path, previewed ? 0 : std::numeric_limits<std::uint64_t>::max());
            if (asked)
                job.setLevelOfDetailAfterPreview(1'000);
            std::vector<std::shared_ptr<TimelineLod>> lods;
            std::shared_ptr<const Trace> trace;
            QObject::connect(&job, &TraceLoadJob::levelOfDetail, [&](auto lod) {
                EXPECT_EQ(trace, nullptr) << "before the trace";
                lods.push_back(lod);
            });
            QSignalSpy finished(&job, &TraceLoadJob::finished);
            QObject::connect(&job, &TraceLoadJob::finished, [&](auto t) { trace = t; });
            job.start();
            ASSERT_TRUE(finished.wait(60000));
            ASSERT_NE(trace, nullptr);
            if (!previewed || !asked) {
                EXPECT_TRUE(lods.empty()) << previewed << asked;
                continue;
            }
            ASSERT_EQ(lods.size(), 1u);
            EXPECT_EQ(lods[0]->trace(), trace.get());
            EXPECT_TRUE(lods[0]->isComplete());
            EXPECT_NE(lods[0]->idleGaps(0, 1'000), nullptr) << "the threshold it was given";
        }
    }
}

// The reopen cache: off unless the window is given a folder; with one, a trace opened twice is
// written once and served from it (the entry is marked as used); the File menu action shows and
// changes the choice, which the settings remember.
TEST_F(MainWindowTest, TheReopenCacheIsUsedOnlyWhenGivenAFolder) {
    EXPECT_TRUE(settings->traceCacheEnabled()) << "on by default";
    EXPECT_EQ(settings->traceCacheCapBytes(), std::nullopt) << "sized from the disk unless set";
    EXPECT_TRUE(AppSettings::traceCacheFolder().endsWith(QStringLiteral("/traces")));
    QAction* action = nullptr;
    for (QAction* a : window->findChildren<QAction*>()) {
        if (a->text() == MainWindow::tr("Keep a Reopen &Cache"))
            action = a;
    }
    ASSERT_NE(action, nullptr);
    EXPECT_FALSE(action->isChecked()) << "no folder given";

    QTemporaryDir cache;
    const QString path = fixture("nsys2025.5-cuda-graphs.sqlite");
    ASSERT_TRUE(open(path).first);
    EXPECT_TRUE(QDir(cache.path()).entryList(QDir::Files).isEmpty());

    window->setTraceCache(cache.path(), settings->traceCacheCapBytes());
    EXPECT_TRUE(action->isChecked());
    ASSERT_TRUE(open(path).first);
    const QFileInfoList entries =
        QDir(cache.path()).entryInfoList({QStringLiteral("*.strobecache")}, QDir::Files);
    ASSERT_EQ(entries.size(), 1);
    const QDateTime old(QDate(2001, 1, 1), QTime(0, 0), Qt::UTC);
    {
        QFile f(entries[0].absoluteFilePath());
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        ASSERT_TRUE(f.setFileTime(old, QFileDevice::FileModificationTime));
    }
    const std::uint64_t kernels = window->trace()->counts().kernels;
    ASSERT_TRUE(open(path).first);
    EXPECT_EQ(window->trace()->counts().kernels, kernels);
    EXPECT_GT(QFileInfo(entries[0].absoluteFilePath()).lastModified(), old.addYears(10));

    action->setChecked(false); // File > Keep a Reopen Cache, unticked
    EXPECT_FALSE(settings->traceCacheEnabled());
    QFile::remove(entries[0].absoluteFilePath());
    ASSERT_TRUE(open(path).first);
    EXPECT_TRUE(QDir(cache.path()).entryList(QDir::Files).isEmpty());
}

// Issue 46: a file's name reaches the error box as plain text, never as a live link.
TEST_F(MainWindowTest, AFileNamedLikeHtmlShowsItsNameAsPlainText) {
    QTemporaryDir files;
    const QString name =
        QStringLiteral("<a href=evil.invalid><b>click me.sqlite"); // no slash in a name
    const QString path = files.filePath(name);
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("not a trace\n");
    f.close();
    const auto [ok, error] = open(path);
    EXPECT_FALSE(ok);
    QMessageBox* box = errorBox();
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->textFormat(), Qt::PlainText);
    EXPECT_TRUE(box->text().contains(name)) << box->text().toStdString();
}

// Issue 46: Export Image onto the open trace (through a symlink here) is refused, and the trace
// keeps its bytes.
TEST_F(MainWindowTest, ExportImageNeverOverwritesTheOpenTrace) {
    QTemporaryDir files;
    const QString trace = files.filePath(QStringLiteral("trace.sqlite"));
    ASSERT_TRUE(QFile::copy(fixture("nsys2024.5-cloverleaf.sqlite"), trace));
    const auto size = QFileInfo(trace).size();
    ASSERT_TRUE(open(trace).first);
    const QString link = files.filePath(QStringLiteral("picture.png"));
    ASSERT_TRUE(QFile::link(trace, link));
    EXPECT_EQ(window->exportImage(link),
              QStringLiteral("Export Image would overwrite the open trace picture.png: choose "
                             "another file."));
    EXPECT_EQ(QFileInfo(trace).size(), size);
    EXPECT_TRUE(QFileInfo(link).isSymLink());
}

// The findings follow each load on a worker, after the operator analysis whose steps, GPU
// metrics and forest they reuse: the same findings computeFindings makes from nothing, shown in
// the Findings panel and the Overview; a new trace drops them first.
TEST_F(MainWindowTest, TheFindingsFollowTheOperatorAnalysisOfEachLoad) {
    std::vector<bool> changes; // true: findings, false: none
    QObject::connect(
        window.get(), &MainWindow::findingsChanged,
        [&](const std::shared_ptr<const FindingAnalysis>& a) { changes.push_back(a != nullptr); });
    const QString resnet =
        QString::fromStdString(test::kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz"));
    ASSERT_TRUE(open(resnet).first);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->findingAnalysis() != nullptr; }, 60000));
    const std::shared_ptr<const FindingAnalysis> a = window->findingAnalysis();
    EXPECT_EQ(a->operators, window->operatorAnalysis()) << "the operator analysis is reused";
    EXPECT_TRUE(a->describes(window->trace()));
    const Findings expected = computeFindings(*window->trace());
    ASSERT_EQ(a->findings.findings.size(), expected.findings.size());
    for (std::size_t i = 0; i < expected.findings.size(); ++i) {
        EXPECT_EQ(a->findings.findings[i].rule, expected.findings[i].rule);
        EXPECT_EQ(a->findings.findings[i].timeNs, expected.findings[i].timeNs);
    }
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->findingsPanel()->isComputing(); }, 30000));
    EXPECT_EQ(window->findingsPanel()->model()->rowCount(), int(expected.findings.size()));
    EXPECT_EQ(window->timeline()->highlights(), nullptr) << "the Overview is raised, not Findings";
    EXPECT_EQ(changes, std::vector<bool>{true});
    if (!expected.findings.empty()) {
        // The Overview's link to the last finding raises the Findings tab with it selected.
        auto* overview = window->findChild<OverviewPanel*>();
        ASSERT_NE(overview, nullptr);
        EXPECT_FALSE(overview->topFindingsText().isEmpty());
        const int last = int(expected.findings.size()) - 1;
        overview->openLink(QStringLiteral("finding:%1").arg(last));
        EXPECT_EQ(window->findingsPanel()->selectedFinding(), last);
        EXPECT_FALSE(window->findingsPanel()->visibleRegion().isEmpty());
    }
    // The timeline marks the selected finding's events while the Findings tab is shown.
    const auto withEvents =
        std::find_if(expected.findings.begin(), expected.findings.end(), [](const Finding& f) {
            return std::any_of(f.evidence.begin(), f.evidence.end(),
                               [](const FindingEvidence& e) { return e.event.isValid(); });
        });
    if (withEvents != expected.findings.end()) {
        window->showFinding(int(withEvents - expected.findings.begin()));
        ASSERT_TRUE(
            QTest::qWaitFor([&] { return !window->findingsPanel()->isComputing(); }, 30000));
        ASSERT_NE(window->findingsPanel()->highlight(), nullptr);
        EXPECT_EQ(window->timeline()->highlights(), window->findingsPanel()->highlight().get());
        const EventRef first =
            std::find_if(withEvents->evidence.begin(), withEvents->evidence.end(),
                         [](const FindingEvidence& e) { return e.event.isValid(); })
                ->event;
        EXPECT_TRUE(window->timeline()->highlights()->contains(first));
        window->findChild<QDockWidget*>(QStringLiteral("kernelsDock"))->raise();
        EXPECT_EQ(window->timeline()->highlights(), nullptr) << "another tab: no marks";
        window->showFinding(int(withEvents - expected.findings.begin()));
        EXPECT_EQ(window->timeline()->highlights(), window->findingsPanel()->highlight().get());
    }

    // Another trace: the findings go at once, the new ones follow.
    ASSERT_TRUE(open(fixture("nsys2024.5-cloverleaf.sqlite")).first);
    ASSERT_GE(changes.size(), 2u);
    EXPECT_FALSE(changes[1]);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->findingAnalysis() != nullptr; }, 60000));
    EXPECT_TRUE(window->findingAnalysis()->describes(window->trace()));
    EXPECT_EQ(changes, (std::vector<bool>{true, false, true}));
}
