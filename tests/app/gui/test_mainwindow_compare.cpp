// SPDX-License-Identifier: MIT
// Comparing in the main window: File > Compare With on the known pair, stacked linked timelines,
// alignment on an iteration, the Comparison panel, the title and status bar.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "model/trace.h"
#include "render/paint/timelinepicture.h"
#include "tests/model/analysis/comparisontestdata.h"
#include "tests/support/qtprinters.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/timeline/comparetimelines.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timelinelink.h"
#include "widgets/viewstate.h"

#include <QAction>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class CompareWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        settings = std::make_unique<AppSettings>(dir.filePath(QStringLiteral("strobe.ini")));
        window = std::make_unique<MainWindow>(settings.get());
        window->resize(1200, 900);
        window->show();
        QSignalSpy opened(window.get(), &MainWindow::loadFinished);
        window->openFile(test::pairPath(fixtures::PairSide::A));
        ASSERT_TRUE(opened.wait(30000));
        ASSERT_TRUE(opened.at(0).at(0).toBool());
    }
    bool compare(const QString& path) {
        QSignalSpy spy(window.get(), &MainWindow::compareLoadFinished);
        window->compareWith(path);
        return spy.wait(30000) && spy.at(0).at(0).toBool();
    }

    QTemporaryDir dir;
    std::unique_ptr<AppSettings> settings;
    std::unique_ptr<MainWindow> window;
};

TEST_F(CompareWindowTest, OpensAPairWithLinkedZoomAndSaysWhichIsWhich) {
    EXPECT_FALSE(window->isComparing());
    EXPECT_FALSE(window->compareTimelines()->isComparing());
    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::B)));
    EXPECT_TRUE(window->isComparing());
    EXPECT_TRUE(window->compareTimelines()->isComparing());
    EXPECT_EQ(window->windowTitle(),
              QStringLiteral("A (baseline): pair-a.sqlite vs B: pair-b.sqlite — Strobe"));
    bool statusSays = false;
    for (const QLabel* l : window->statusBar()->findChildren<QLabel*>())
        statusSays |=
            l->text() == QStringLiteral("A (baseline): pair-a.sqlite  \u00b7  B: pair-b.sqlite");
    EXPECT_TRUE(statusSays);

    // Linked zoom: zooming A's timeline zooms B's to the same width, shifted by the offset.
    TimelineView* ta = window->timeline();
    TimelineView* tb = window->compareTimelines()->timelineB();
    ASSERT_TRUE(tb->isVisible());
    ta->zoomAt(100, 0.25); // zoom in 4x
    const TimeRange va = window->viewState()->visibleRange();
    const TimeRange vb = window->viewStateB()->visibleRange();
    EXPECT_LT(va.duration(), 19000);
    EXPECT_EQ(vb.duration(), va.duration());
    const TimeNs offset = window->compareTimelines()->link()->offset();
    EXPECT_EQ(vb.start, va.start + offset);
    // Panning B pans A.
    tb->panPixels(-50);
    EXPECT_EQ(window->viewState()->visibleRange().start,
              window->viewStateB()->visibleRange().start - offset);
    EXPECT_NE(window->viewState()->visibleRange(), va);

    // The panel arrives, and with it the iterations to align on.
    ComparisonPanel* panel = window->comparisonPanel();
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel->comparison() != nullptr; }, 30000));
    ASSERT_TRUE(window->compareTimelines()->alignOnInstance(1)); // iteration 1: 11000 vs 11000
    EXPECT_EQ(window->compareTimelines()->link()->offset(), 0);
    EXPECT_FALSE(window->compareTimelines()->alignsOwnStarts());
    EXPECT_FALSE(window->compareTimelines()->alignOnInstance(2)); // A has only two
    // Double-clicking alpha selects its longest instance on both sides, at the same x.
    panel->activateKernelRow(0);
    const EventRef sa = window->viewState()->selection(), sb = window->viewStateB()->selection();
    ASSERT_TRUE(sa.isValid() && sb.isValid());
    const auto ra = ta->eventRect(sa), rb = tb->eventRect(sb);
    ASSERT_TRUE(ra && rb);
    EXPECT_NEAR(ra->left(), rb->left(), 1.0);
    EXPECT_NEAR(rb->width(), 2 * ra->width(), 2.0); // 2x slower in B

    window->compareTimelines()->alignOwnStarts();
    EXPECT_TRUE(window->compareTimelines()->alignsOwnStarts());
    window->stopComparing();
    EXPECT_FALSE(window->isComparing());
    EXPECT_EQ(window->windowTitle(), QStringLiteral("pair-a.sqlite — Strobe"));
    EXPECT_FALSE(window->compareTimelines()->isComparing());
}

TEST_F(CompareWindowTest, AFailedComparisonLoadSaysWhyAndKeepsA) {
    EXPECT_FALSE(compare(dir.filePath(QStringLiteral("missing.sqlite"))));
    EXPECT_FALSE(window->isComparing());
    EXPECT_NE(window->trace(), nullptr);
    auto* box = window->findChild<QMessageBox*>();
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(QLatin1String("missing.sqlite"))) << box->text().toStdString();
}

// Waits for the panel's comparison of the pair whose B is `fileB`.
bool comparisonOf(ComparisonPanel* panel, const QString& fileB) {
    return QTest::qWaitFor(
        [&] {
            const auto c = panel->comparison();
            return !panel->isComputing() && c && c->b.file.endsWith(fileB);
        },
        30000);
}

QAction* actionWithShortcut(MainWindow& w, const QKeySequence& key) {
    for (QAction* a : w.findChildren<QAction*>())
        if (a->shortcuts().contains(key))
            return a;
    return nullptr;
}

TEST_F(CompareWindowTest, ANewPairDetectsItsIterationRangeAgain) {
    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::B)));
    ComparisonPanel* panel = window->comparisonPanel();
    ASSERT_TRUE(comparisonOf(panel, QStringLiteral("pair-b.sqlite")));
    EXPECT_TRUE(panel->comparison()->rangeDetected);
    panel->setRange(QStringLiteral("FSDP::pre_forward")); // a name this pair does not hold
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return !panel->isComputing() &&
                   panel->comparison()->rangeName == QLatin1String("FSDP::pre_forward");
        },
        30000));
    EXPECT_EQ(panel->comparison()->a.instanceCount(), 0);
    // A new B: the typed name belonged to the old pair, so the range is detected again.
    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::A)));
    ASSERT_TRUE(comparisonOf(panel, QStringLiteral("pair-a.sqlite")));
    EXPECT_TRUE(panel->comparison()->hasRange());
    EXPECT_TRUE(panel->comparison()->rangeDetected);
    EXPECT_EQ(panel->comparison()->a.instanceCount(), 2);
}

TEST_F(CompareWindowTest, OpeningAFileEndsTheComparisonAndSaysSo) {
    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::B)));
    QSignalSpy opened(window.get(), &MainWindow::loadFinished);
    window->openFile(test::pairPath(fixtures::PairSide::B));
    ASSERT_TRUE(opened.wait(30000));
    ASSERT_TRUE(opened.at(0).at(0).toBool());
    EXPECT_FALSE(window->isComparing());
    EXPECT_EQ(window->traceB(), nullptr);
    EXPECT_FALSE(window->compareTimelines()->isComparing());
    EXPECT_FALSE(window->comparisonPanel()->isVisibleTo(window.get()));
    EXPECT_EQ(window->windowTitle(), QStringLiteral("pair-b.sqlite — Strobe"));
    EXPECT_EQ(window->statusBar()->currentMessage(),
              QStringLiteral("Opened pair-b.sqlite: the comparison with pair-b.sqlite ended."));
}

// The y of the SVG text element that reads `text`, or -1.
double svgTextY(const QString& svg, const QString& text) {
    const QRegularExpression re(QStringLiteral("<text[^>]*\\by=\"([-0-9.]+)\"[^>]*>\\s*") +
                                QRegularExpression::escape(text));
    const QRegularExpressionMatch m = re.match(svg);
    return m.hasMatch() ? m.captured(1).toDouble() : -1.0;
}

TEST_F(CompareWindowTest, ExportImageSavesBothTracesStackedWithTheirNames) {
    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::B)));
    // A's pane shorter than its rows: B's band must still start where B's pane does.
    auto* split =
        window->compareTimelines()->findChild<QSplitter*>(QString(), Qt::FindDirectChildrenOnly);
    ASSERT_NE(split, nullptr);
    split->setSizes({90, 500});
    QCoreApplication::processEvents();
    TimelineView* ta = window->timeline();
    TimelineView* tb = window->compareTimelines()->timelineB();
    ASSERT_LT(ta->canvasSize().height(), ta->laneLayout().contentHeight());
    const QString path = dir.filePath(QStringLiteral("pair.svg"));
    ASSERT_EQ(window->exportImage(path), QString());
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());
    const double a = svgTextY(svg, QStringLiteral("A (baseline): pair-a.sqlite"));
    const double b = svgTextY(svg, QStringLiteral("B: pair-b.sqlite"));
    const int bTop = TimelineView::kRulerHeight + kPictureTitleHeight + ta->canvasSize().height();
    EXPECT_GT(a, TimelineView::kRulerHeight);
    EXPECT_LT(a, TimelineView::kRulerHeight + kPictureTitleHeight);
    EXPECT_GT(b, bTop) << svg.left(200).toStdString();
    EXPECT_LT(b, bTop + kPictureTitleHeight);
    EXPECT_TRUE(svg.contains(QLatin1String("pair-a.sqlite vs pair-b.sqlite")));

    // Without a size, the picture is as big as both panes: taller than A's alone.
    const QString png = dir.filePath(QStringLiteral("pair.png"));
    ASSERT_EQ(window->exportImage(png), QString());
    const QImage both(png);
    EXPECT_EQ(both.width(), TimelineView::kHeaderWidth + ta->canvasSize().width());
    EXPECT_EQ(both.height(), TimelineView::kRulerHeight + ta->canvasSize().height() +
                                 tb->canvasSize().height() + 2 * kPictureTitleHeight +
                                 kPictureFooterHeight);
}

TEST_F(CompareWindowTest, FileCloseEndsTheComparisonAndClosesTheTrace) {
    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::B)));
    QAction* stop = actionWithShortcut(*window, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    ASSERT_NE(stop, nullptr);
    EXPECT_TRUE(stop->isEnabled());
    stop->trigger();
    EXPECT_FALSE(window->isComparing());
    EXPECT_NE(window->trace(), nullptr);
    EXPECT_FALSE(stop->isEnabled()); // nothing left to stop

    ASSERT_TRUE(compare(test::pairPath(fixtures::PairSide::B)));
    QAction* close = actionWithShortcut(*window, QKeySequence(Qt::CTRL | Qt::Key_W));
    ASSERT_NE(close, nullptr);
    close->trigger();
    EXPECT_EQ(window->trace(), nullptr);
    EXPECT_FALSE(window->isComparing());
    EXPECT_FALSE(window->compareTimelines()->isComparing());
    EXPECT_EQ(window->windowTitle(), QStringLiteral("Strobe"));
    EXPECT_FALSE(close->isEnabled());
    // The window is as at start: opening again works.
    QSignalSpy opened(window.get(), &MainWindow::loadFinished);
    window->openFile(test::pairPath(fixtures::PairSide::A));
    ASSERT_TRUE(opened.wait(30000));
    EXPECT_TRUE(close->isEnabled());
}

} // namespace
