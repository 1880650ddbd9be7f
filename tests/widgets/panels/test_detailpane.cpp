// SPDX-License-Identifier: MIT
#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/launchchaintestdata.h"
#include "tests/support/sqlitequery.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/elidedlabel.h"

#include <QClipboard>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QTest>
#include <QTreeWidget>
#include <algorithm>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(DetailPane, ShowsTheSelectionAndCopiesItAsText) {
    ViewState state;
    state.setTrace(cloverleaf());
    DetailPane pane(&state);
    EXPECT_TRUE(pane.details().isEmpty());

    const Trace& t = *cloverleaf();
    state.setSelection(t.kernels()[0].self);
    ASSERT_TRUE(waitUntilReady(pane));
    ASSERT_FALSE(pane.details().isEmpty());
    EXPECT_EQ(pane.details().value(QStringLiteral("Device"), QStringLiteral("SM count")),
              QStringLiteral("108"));
    // The occupancy of the first kernel, from its SQL row and the GPU's limits: warps per block
    // = ceil(threads / 32); registers are allocated per warp in units of 256; the runtime
    // reserves 1 KiB of shared memory per block (sm_80); ties name registers first
    // (occupancy.cpp's documented rule).
    const std::string db = test::fixturePath("nsys2024.5-cloverleaf.sqlite");
    const auto k =
        test::query(db, "SELECT blockX * blockY * blockZ, registersPerThread, staticSharedMemory + "
                        "dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = " +
                            std::to_string(t.kernelAt(0).start));
    const auto g = test::query(db, "SELECT maxWarpsPerSm, maxRegistersPerSm, maxBlocksPerSm, "
                                   "maxShmemPerSm FROM TARGET_INFO_GPU WHERE id = 0");
    ASSERT_EQ(k.size(), 1u);
    ASSERT_EQ(g.size(), 1u);
    const long warps = (std::stol(k[0][0]) + 31) / 32;
    const long regsPerWarp = (std::stol(k[0][1]) * 32 + 255) / 256 * 256;
    const long byWarps = std::stol(g[0][0]) / warps;
    const long byRegs = std::stol(g[0][1]) / regsPerWarp / warps;
    const long bySm = std::stol(g[0][2]);
    const long byShared = std::stol(g[0][3]) / (std::stol(k[0][2]) + 1024);
    const long active = std::min({byWarps, byRegs, bySm, byShared});
    const QString limit = active == byRegs     ? QStringLiteral("registers")
                          : active == byShared ? QStringLiteral("shared memory")
                          : active == byWarps  ? QStringLiteral("warps per SM")
                                               : QStringLiteral("blocks per SM");
    const auto occ = [&](const char* key) {
        return pane.details().value(QStringLiteral("Theoretical occupancy"),
                                    QString::fromLatin1(key));
    };
    EXPECT_EQ(occ("Limited by"), limit);
    EXPECT_EQ(occ("Active blocks per SM"), QString::number(active));
    EXPECT_EQ(occ("Blocks per SM by warps"), QString::number(byWarps));
    EXPECT_EQ(occ("Blocks per SM by registers"), QString::number(byRegs));
    EXPECT_EQ(occ("Blocks per SM by shared memory"), QString::number(byShared));
    EXPECT_EQ(pane.details().value(QStringLiteral("Launch API call"), QStringLiteral("API call")),
              QStringLiteral("cudaLaunchKernel"));

    pane.copyToClipboard();
    EXPECT_EQ(QApplication::clipboard()->text(), pane.text());
    EXPECT_TRUE(pane.text().contains(QStringLiteral("Registers per thread: ")));

    // A memcpy shows bytes and bandwidth.
    state.setSelection(t.memcpys().front().self);
    ASSERT_TRUE(waitUntilReady(pane));
    EXPECT_TRUE(pane.details().title.startsWith(QStringLiteral("Memcpy")));
    const auto bytes = test::queryInt(
        db, "SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE start = " +
                std::to_string(
                    t.lane(t.memcpys().front().self.lane).start(t.memcpys().front().self.index)));
    ASSERT_LT(bytes, 1024) << "printed as plain bytes";
    EXPECT_EQ(pane.details().value(QStringLiteral("Memory copy"), QStringLiteral("Bytes")),
              QString::number(bytes) + QStringLiteral(" B"));

    // Ctrl+C copies too.
    pane.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&pane));
    QApplication::clipboard()->clear();
    pane.activateWindow();
    pane.setFocus();
    QTest::keyClick(&pane, Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(), pane.text());

    state.setSelection(EventRef{});
    EXPECT_TRUE(pane.details().isEmpty());
}

TEST(DetailPane, DetailsArriveFromTheWorkerAndStaleOnesAreDiscarded) {
    ViewState state;
    state.setTrace(cloverleaf());
    DetailPane pane(&state);
    const Trace& t = *cloverleaf();
    std::vector<QString> shown; // the title of every description that reached the pane
    QObject::connect(&pane, &DetailPane::ready, &pane,
                     [&] { shown.push_back(pane.details().title); });
    state.setSelection(t.kernels()[0].self); // starts describing the kernel...
    EXPECT_TRUE(pane.isComputing());
    state.setSelection(t.memcpys().front().self); // ...replaced before it can arrive
    ASSERT_TRUE(waitUntilReady(pane));
    QTest::qWait(100); // a stale result, were it delivered, would arrive by now
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_TRUE(shown[0].startsWith(QStringLiteral("Memcpy"))) << shown[0].toStdString();
    // A new trace clears the selection: the pane empties at once.
    state.setTrace(cloverleaf());
    EXPECT_FALSE(pane.isComputing());
    EXPECT_TRUE(pane.details().isEmpty());
}

// Issue #14 item 7: a long kernel name is elided in the pane, in full in the tooltip and in Copy,
// and the dock keeps its width.
TEST(DetailPane, ALongNameIsElidedAndNeverWidensTheDock) {
    const std::string name = "void at::native::reduce_kernel<" + std::string(90, 'x') + ">";
    std::shared_ptr<const Trace> trace = test::kernelTrace(
        {{"short_kernel", "short_kernel", 1000, 10}, {name.c_str(), name.c_str(), 2000, 5}});
    const QString full = QString::fromStdString(name);
    ViewState state;
    state.setTrace(trace);
    QMainWindow window;
    window.setCentralWidget(new QWidget);
    auto* dock = new QDockWidget(QStringLiteral("Details"));
    auto* pane = new DetailPane(&state);
    dock->setWidget(pane);
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    window.resize(1400, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    state.setSelection(trace->kernels()[0].self);
    ASSERT_TRUE(waitUntilReady(*pane));
    QApplication::processEvents();
    const int dockWidth = dock->width();
    const QSize hint = pane->sizeHint(), minimum = pane->minimumSizeHint();
    ASSERT_LT(dockWidth, 700);

    state.setSelection(trace->kernels()[1].self);
    ASSERT_TRUE(waitUntilReady(*pane));
    QTest::qWait(50); // the main window lays its docks out again
    EXPECT_EQ(dock->width(), dockWidth);
    EXPECT_EQ(pane->sizeHint().width(), hint.width());
    EXPECT_EQ(pane->minimumSizeHint().width(), minimum.width());

    auto* title = pane->findChild<ElidedLabel*>();
    ASSERT_TRUE(title);
    EXPECT_EQ(title->text(), QStringLiteral("Kernel ") + full);
    EXPECT_EQ(title->toolTip(), title->text());
    EXPECT_TRUE(title->displayedText().endsWith(QChar(0x2026))) << "elided";
    EXPECT_LE(title->fontMetrics().horizontalAdvance(title->displayedText()), title->width());
    // The full name in the tree's tooltip and in Copy.
    auto* tree = pane->findChild<QTreeWidget*>();
    ASSERT_TRUE(tree);
    const QList<QTreeWidgetItem*> items = tree->findItems(full, Qt::MatchExactly, 1);
    ASSERT_FALSE(items.isEmpty());
    EXPECT_EQ(items[0]->toolTip(1), full);
    pane->copyToClipboard();
    EXPECT_TRUE(QApplication::clipboard()->text().contains(QStringLiteral(": ") + full));
}

} // namespace

namespace {

// With the trace's operators, a kernel names the chain that launched it as links (the names
// escaped); a link selects that operator's range and brings it into view.
TEST(DetailPane, OperatorChainLinksSelectTheOperatorsRange) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    ViewState state;
    state.setTrace(trace);
    DetailPane pane(&state);
    state.setSelection(trace->kernels()[1].self);
    ASSERT_TRUE(waitUntilReady(pane));
    EXPECT_TRUE(
        pane.details().value(QStringLiteral("Operators"), QStringLiteral("Launched by")).isEmpty())
        << "no analysis yet: no chain";
    pane.setOperatorAnalysis(analyzeOperators(trace));
    ASSERT_TRUE(waitUntilReady(pane));
    EXPECT_EQ(pane.details().value(QStringLiteral("Operators"), QStringLiteral("Launched by")),
              QStringLiteral("aten::cudnn_convolution <- aten::_convolution <- aten::conv2d"));
    QStringList links;
    for (const QLabel* l : pane.findChildren<QLabel*>())
        if (l->text().contains(QStringLiteral("href")))
            links << l->text();
    // One link a row, innermost first.
    EXPECT_EQ(links, (QStringList{QStringLiteral("<a href=\"0\">aten::cudnn_convolution</a>"),
                                  QStringLiteral("&lt;- <a href=\"1\">aten::_convolution</a>"),
                                  QStringLiteral("&lt;- <a href=\"2\">aten::conv2d</a>")}));
    EXPECT_TRUE(pane.text().contains(QStringLiteral("Launched by: aten::cudnn_convolution")));

    state.setVisibleRange({0, 2000}); // aten::conv2d [1000, 5000) ends outside
    EXPECT_TRUE(pane.followLink(QStringLiteral("Operators"), QStringLiteral("Launched by"), 2));
    EXPECT_EQ(state.selectedRange(), std::optional<TimeRange>(TimeRange{1000, 5000}));
    EXPECT_EQ(state.visibleRange(), (TimeRange{200, 5800}));
    EXPECT_EQ(state.selection(), trace->kernels()[1].self) << "the kernel stays selected";
    EXPECT_FALSE(pane.followLink(QStringLiteral("Operators"), QStringLiteral("Launched by"), 3));

    // Another trace: the analysis does not describe it, so no chain.
    state.setTrace(kernelTrace({{"k", "k", 1000, 100}}));
    state.setSelection(state.trace()->kernels()[0].self);
    ASSERT_TRUE(waitUntilReady(pane));
    EXPECT_TRUE(
        pane.details().value(QStringLiteral("Operators"), QStringLiteral("Launched by")).isEmpty());
}

} // namespace
