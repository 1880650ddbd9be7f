// SPDX-License-Identifier: MIT
#include "model/bothcores.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <thread>

using namespace strobe;

TEST(BothCores, RunsTheFirstOnAnotherThreadAndTheSecondOnThisOne) {
    std::thread::id first, second;
    runOnBothCores([&] { first = std::this_thread::get_id(); },
                   [&] { second = std::this_thread::get_id(); });
    EXPECT_NE(first, std::thread::id());
    EXPECT_NE(first, std::this_thread::get_id());
    EXPECT_EQ(second, std::this_thread::get_id());
}

TEST(BothCores, RethrowsEitherSidesExceptionAfterBothAreDone) {
    bool secondDone = false;
    EXPECT_THROW(
        runOnBothCores([] { throw std::runtime_error("first"); }, [&] { secondDone = true; }),
        std::runtime_error);
    EXPECT_TRUE(secondDone);
    bool firstDone = false;
    EXPECT_THROW(runOnBothCores([&] { firstDone = true; }, [] { throw std::bad_alloc(); }),
                 std::bad_alloc);
    EXPECT_TRUE(firstDone);
}

TEST(BothCores, WhenBothThrowTheFirstSidesExceptionWins) {
    try {
        runOnBothCores([] { throw std::runtime_error("first"); },
                       [] { throw std::logic_error("second"); });
        FAIL() << "nothing was thrown";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "first");
    } catch (const std::logic_error&) {
        FAIL() << "the second side's exception won";
    }
}
