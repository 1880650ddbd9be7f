// SPDX-License-Identifier: MIT
// The Kineto reader leaves out the parts a command does not ask for (operators and Python
// functions, syncs, memory samples): every command that reads fewer parts prints, on every Kineto
// fixture, exactly what it prints after a full read, and the trace says what it lacks. On one
// thread (LoadOptions::threads = 1, as a job's files are read) it builds the two-thread model.
#include "app/cli/commands.h"
#include "formats/kineto/kinetoreader.h"
#include "tests/app/cli/clitesthelpers.h"
#include "tests/formats/cache/traceequal.h"
#include "tests/support/kinetoscan.h"

#include <QTextStream>
#include <gtest/gtest.h>
#include <thread>

using namespace strobe;

namespace {

using Command = int (*)(const QStringList&, cli::Io);

// The commands whose parts lack operators, syncs or memory samples, and `breakdown --range`,
// `job`, which keep the steps only.
struct Case {
    const char* name;
    Command command;
    QStringList options; // after FILE
};

TEST(KinetoParts, EachCommandPrintsWhatAFullReadPrints) {
    const QString json = QStringLiteral("json");
    const std::vector<Case> cases = {
        {"kernel-summary", &cli::runKernelSummary, {}},
        {"kernels", &cli::runKernels, {}},
        {"nvtx-summary", &cli::runNvtxSummary, {}},
        {"memory-summary", &cli::runMemorySummary, {}},
        {"api-summary", &cli::runApiSummary, {}},
        {"launch-summary", &cli::runLaunchSummary, {}},
        {"nvtx-summary --gpu", &cli::runNvtxGpuSummary, {}},
        {"gaps json", &cli::runGaps, {QStringLiteral("--format"), json}},
        {"breakdown json", &cli::runBreakdown, {QStringLiteral("--format"), json}},
        {"job", &cli::runJob, {}},
        {"job steps", &cli::runJob, {QStringLiteral("--what"), QStringLiteral("steps")}},
    };
    for (const std::string& name : test::kinetoFixtures()) {
        SCOPED_TRACE(name);
        const QString path = QString::fromStdString(test::kinetoFixturePath(name));
        for (const Case& c : cases) {
            const QStringList args = QStringList{path} + c.options;
            const test::CliResult own = test::runCli(c.command, args);
            const test::CliResult full = test::runCli(c.command, args, kAllTraceParts);
            EXPECT_EQ(own.status, full.status) << c.name;
            EXPECT_EQ(own.out, full.out) << c.name;
            EXPECT_EQ(own.err, full.err) << c.name;
        }
    }
}

TEST(KinetoParts, LoadedPartsSayWhatWasLeftOut) {
    const QString path =
        QString::fromStdString(test::kinetoFixturePath(test::kinetoFixtures().front()));
    for (const TracePart left : {TracePart::CpuOps, TracePart::Syncs, TracePart::GpuMemory}) {
        LoadOptions o;
        o.parts = kAllTraceParts & ~TraceParts(left);
        const LoadResult r = KinetoJsonLoader(path, o).load();
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        EXPECT_EQ(r.trace->metadata().loadedParts, o.parts);
    }
    // The parts a Kineto read never leaves out: read, and said to be.
    LoadOptions o;
    o.parts = TracePart::Kernels;
    const LoadResult r = KinetoJsonLoader(path, o).load();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.trace->metadata().loadedParts,
              kAllTraceParts & ~(TracePart::CpuOps | TracePart::Syncs | TracePart::GpuMemory));
}

// A read without operators keeps its parser for the thread's next one; a full read keeps none;
// each thread has its own, freed by releaseKeptParser or when the thread ends.
TEST(KinetoParts, AReadWithoutOperatorsKeepsItsThreadsParser) {
    const QString path =
        QString::fromStdString(test::kinetoFixturePath(test::kinetoFixtures().front()));
    KinetoJsonLoader::releaseKeptParser();
    EXPECT_EQ(KinetoJsonLoader::keptParserCapacity(), 0u);
    ASSERT_TRUE(KinetoJsonLoader(path, LoadOptions{}).load().ok());
    EXPECT_EQ(KinetoJsonLoader::keptParserCapacity(), 0u);
    LoadOptions reduced;
    reduced.parts = kAllTraceParts & ~TraceParts(TracePart::CpuOps);
    ASSERT_TRUE(KinetoJsonLoader(path, reduced).load().ok());
    const std::size_t kept = KinetoJsonLoader::keptParserCapacity();
    EXPECT_GT(kept, 0u);
    ASSERT_TRUE(KinetoJsonLoader(path, reduced).load().ok());
    EXPECT_EQ(KinetoJsonLoader::keptParserCapacity(), kept); // the same one, reused
    std::size_t onAnother = 1;
    std::thread([&] { onAnother = KinetoJsonLoader::keptParserCapacity(); }).join();
    EXPECT_EQ(onAnother, 0u);
    KinetoJsonLoader::releaseKeptParser();
    EXPECT_EQ(KinetoJsonLoader::keptParserCapacity(), 0u);
}

TEST(KinetoParts, OneThreadGivesTheTwoThreadModel) {
    for (const std::string& name : test::kinetoFixtures()) {
        SCOPED_TRACE(name);
        const QString path = QString::fromStdString(test::kinetoFixturePath(name));
        for (const TraceParts parts : {kAllTraceParts, TraceParts(TracePart::Kernels)}) {
            LoadOptions two, one;
            two.parts = one.parts = parts;
            one.threads = 1;
            const LoadResult a = KinetoJsonLoader(path, two).load();
            const LoadResult b = KinetoJsonLoader(path, one).load();
            ASSERT_TRUE(a.ok() && b.ok()) << a.error.toStdString() << b.error.toStdString();
            test::expectTracesEqual(*a.trace, *b.trace);
            // The split read (text past 4 GiB) hands its pieces through the same pipe.
            KinetoJsonLoader split(path, one);
            split.splitIntoPieces(1 << 16);
            const LoadResult c = split.load();
            ASSERT_TRUE(c.ok()) << c.error.toStdString();
            test::expectTracesEqual(*a.trace, *c.trace);
        }
    }
}

} // namespace
