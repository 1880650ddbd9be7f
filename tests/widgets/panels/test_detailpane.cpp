// SPDX-License-Identifier: MIT
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/detailpane.h"

#include <QClipboard>
#include <QTest>
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
    EXPECT_FALSE(pane.details()
                     .value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Limited by"))
                     .isEmpty());
    EXPECT_EQ(pane.details().value(QStringLiteral("Launch API call"), QStringLiteral("API call")),
              QStringLiteral("cudaLaunchKernel"));

    pane.copyToClipboard();
    EXPECT_EQ(QApplication::clipboard()->text(), pane.text());
    EXPECT_TRUE(pane.text().contains(QStringLiteral("Registers per thread: ")));

    // A memcpy shows bytes and bandwidth.
    state.setSelection(t.memcpys().front().self);
    ASSERT_TRUE(waitUntilReady(pane));
    EXPECT_TRUE(pane.details().title.startsWith(QStringLiteral("Memcpy")));
    EXPECT_FALSE(
        pane.details().value(QStringLiteral("Memory copy"), QStringLiteral("Bytes")).isEmpty());

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

} // namespace
