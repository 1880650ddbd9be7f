// SPDX-License-Identifier: MIT
// Renders the kernel table (sorted by duration) beside the detail pane of the longest kernel:
//   QT_QPA_PLATFORM=offscreen panels_screenshot TRACE OUT.png   (scripts/screenshots.sh)
// It waits for every panel's worker before each step and before the picture.
#include "formats/open.h"
#include "model/itemmodels/kerneltablemodel.h"
#include "tests/support/waitfinished.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <cstdio>

using namespace strobe;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: panels_screenshot TRACE OUT.png\n");
        return 2;
    }
    LoadResult r = loadTrace(QString::fromLocal8Bit(argv[1]));
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    ViewState state;
    state.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)));
    QSplitter window(Qt::Vertical);
    auto* top = new QSplitter(Qt::Horizontal, &window);
    auto* table = new KernelTableWidget(&state, top);
    new DetailPane(&state, top);
    auto* stats = new StatisticsWidget(&state, &window);
    QObject::connect(stats, &StatisticsWidget::kernelFilterRequested, table,
                     &KernelTableWidget::showOnlyConfigs);
    top->setSizes({1000, 600});
    window.setSizes({620, 280});
    window.resize(1600, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    const auto finished = [&window] {
        if (test::waitUntilFinished<KernelTableWidget, DetailPane, StatisticsWidget>(&window))
            return true;
        std::fprintf(stderr, "panels_screenshot: the panels did not finish computing\n");
        return false;
    };
    if (!finished())
        return 1;
    table->view()->sortByColumn(KernelTableModel::Duration, Qt::DescendingOrder);
    if (!finished())
        return 1;
    table->activateRow(0);
    if (!finished())
        return 1;
    return window.grab().save(QString::fromLocal8Bit(argv[2])) ? 0 : 1;
}
