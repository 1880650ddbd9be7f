// SPDX-License-Identifier: MIT
// Sort and filter times of the kernel table at one million rows:
//   bench_kerneltable [ROWS]
// Prints one line per operation: first sort of a column (builds its permutation), re-sort
// (cached permutation), and a name filter pass.
#include "model/itemmodels/kerneltablemodel.h"
#include "model/tracebuilder.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <cstdio>

using namespace strobe;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int rows = argc > 1 ? std::atoi(argv[1]) : 1'000'000;
    TraceBuilder b(QStringLiteral("bench"));
    std::vector<KernelConfig> configs(64);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        KernelConfig& c = configs[i];
        const std::string name = "kernel_" + std::to_string(i * 7919 % 64);
        c.shortName = b.intern(name);
        c.demangledName = b.intern("void " + name + "<float>(float*)");
        c.grid = {std::int32_t(i * 13 % 97 + 1), 1, 1};
        c.block = {128, 1, 1};
        c.registersPerThread = std::uint32_t(16 + i % 48);
    }
    std::uint64_t x = 88172645463325252ull;
    for (int i = 0; i < rows; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const TimeNs start = TimeNs(i) * 2000;
        b.addKernel(1, 0, 1, std::uint32_t(7 + x % 4), start, start + TimeNs(x % 1900 + 1),
                    configs[x % configs.size()], std::uint32_t(i + 1), std::nullopt);
    }
    std::shared_ptr<const Trace> trace = b.finish();
    KernelTableModel model;
    QElapsedTimer t;
    t.start();
    model.setTrace(trace);
    std::printf("rows %d\nset_trace_ms %.1f\n", model.rowCount(), double(t.nsecsElapsed()) / 1e6);
    const int columns[] = {KernelTableModel::Duration, KernelTableModel::Name,
                           KernelTableModel::Grid, KernelTableModel::Stream};
    for (int c : columns) {
        t.restart();
        model.sort(c, Qt::DescendingOrder);
        const double first = double(t.nsecsElapsed()) / 1e6;
        model.sort(KernelTableModel::Start, Qt::AscendingOrder);
        t.restart();
        model.sort(c, Qt::AscendingOrder);
        const double again = double(t.nsecsElapsed()) / 1e6;
        std::printf("sort_%s_first_ms %.1f\nsort_%s_cached_ms %.1f\n",
                    model.headerData(c, Qt::Horizontal).toString().toUtf8().constData(), first,
                    model.headerData(c, Qt::Horizontal).toString().toUtf8().constData(), again);
    }
    t.restart();
    model.setNameFilter(QStringLiteral("kernel_1"), false);
    std::printf("filter_substring_ms %.1f (rows %d)\n", double(t.nsecsElapsed()) / 1e6,
                model.rowCount());
    t.restart();
    model.setNameFilter(QStringLiteral("kernel_[0-3]$"), true);
    std::printf("filter_regex_ms %.1f (rows %d)\n", double(t.nsecsElapsed()) / 1e6,
                model.rowCount());
    return 0;
}
