// SPDX-License-Identifier: MIT
// The file boundary both readers share: each way out of a read becomes its LoadResult.
#include "model/loadboundary.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace strobe;

namespace {

const QString kFile = QStringLiteral("run.sqlite");

} // namespace

TEST(LoadBoundary, AReadThatReturnsATraceGivesItBackWithNoError) {
    const LoadResult r = loadAtBoundary(kFile, [] { return TraceBuilder(kFile).finish(); });
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.error.isEmpty());
    EXPECT_FALSE(r.cancelled);
}

TEST(LoadBoundary, AFailureGivesItsSentenceAsItIs) {
    const LoadResult r = loadAtBoundary(kFile, []() -> std::unique_ptr<Trace> {
        throw LoadFailure{QStringLiteral("'run.sqlite' is broken.")};
    });
    EXPECT_FALSE(r.ok());
    EXPECT_FALSE(r.cancelled);
    EXPECT_EQ(r.error, QStringLiteral("'run.sqlite' is broken."));
}

TEST(LoadBoundary, AFailureIsRewordedByTheReadersOwnRule) {
    const LoadResult r = loadAtBoundary(
        kFile,
        []() -> std::unique_ptr<Trace> { throw LoadFailure{QStringLiteral("parser noise")}; },
        [](const QString& m) -> QString {
            return QStringLiteral("changed while read, not: ") % m;
        });
    EXPECT_EQ(r.error, QStringLiteral("changed while read, not: parser noise"));
}

TEST(LoadBoundary, ACancelSaysSoAndNamesTheFile) {
    const LoadResult r =
        loadAtBoundary(kFile, []() -> std::unique_ptr<Trace> { throw LoadCancelled{}; });
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.error, QStringLiteral("Loading 'run.sqlite' was cancelled."));
}

TEST(LoadBoundary, RunningOutOfMemoryIsASentenceNotACrash) {
    const LoadResult r =
        loadAtBoundary(kFile, []() -> std::unique_ptr<Trace> { throw std::bad_alloc{}; });
    EXPECT_FALSE(r.ok());
    EXPECT_FALSE(r.cancelled);
    EXPECT_EQ(r.error, QStringLiteral("Cannot load 'run.sqlite': not enough memory."));
}

TEST(LoadBoundary, OtherExceptionsPassThrough) {
    EXPECT_THROW(loadAtBoundary(kFile,
                                []() -> std::unique_ptr<Trace> {
                                    throw std::runtime_error("a programmer's error");
                                }),
                 std::runtime_error);
}

TEST(LoadBoundary, ThrowIfCancelledThrowsOnlyWhenSet) {
    std::atomic<bool> cancel{false};
    EXPECT_FALSE(isCancelled(nullptr));
    EXPECT_NO_THROW(throwIfCancelled(nullptr));
    EXPECT_FALSE(isCancelled(&cancel));
    EXPECT_NO_THROW(throwIfCancelled(&cancel));
    cancel = true;
    EXPECT_TRUE(isCancelled(&cancel));
    EXPECT_THROW(throwIfCancelled(&cancel), LoadCancelled);
}
