// SPDX-License-Identifier: MIT
// When the executables run themselves again with malloc on transparent huge pages: only where
// the kernel hands them out on request, once, and never over the user's own setting.
#include "model/hugepages.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {
constexpr std::string_view kMadvise = "always [madvise] never\n";
}

TEST(HugePages, AsksForThemWhereTheKernelGivesThemOnRequest) {
    EXPECT_EQ(hugePageTunables(std::nullopt, kMadvise, false), "glibc.malloc.hugetlb=1");
    EXPECT_EQ(hugePageTunables(std::string_view(""), kMadvise, false), "glibc.malloc.hugetlb=1");
    // The user's other tunables are kept.
    EXPECT_EQ(hugePageTunables(std::string_view("glibc.malloc.arena_max=2"), kMadvise, false),
              "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(HugePages, RunsAgainAtMostOnceAndNotOverTheUsersChoice) {
    // The second run finds the tunable it set: no loop.
    const auto first = hugePageTunables(std::nullopt, kMadvise, false);
    ASSERT_TRUE(first);
    EXPECT_EQ(hugePageTunables(std::string_view(*first), kMadvise, false), std::nullopt);
    // hugetlb=0 (or 2) of the user's own stays.
    EXPECT_EQ(hugePageTunables(std::string_view("glibc.malloc.hugetlb=0"), kMadvise, false),
              std::nullopt);
    // STROBE_HUGEPAGES=0 turns it off.
    EXPECT_EQ(hugePageTunables(std::nullopt, kMadvise, true), std::nullopt);
}

TEST(HugePages, NotWhereTheKernelGivesThemAnywayOrNever) {
    EXPECT_EQ(hugePageTunables(std::nullopt, "[always] madvise never\n", false), std::nullopt);
    EXPECT_EQ(hugePageTunables(std::nullopt, "always madvise [never]\n", false), std::nullopt);
    EXPECT_EQ(hugePageTunables(std::nullopt, "", false), std::nullopt); // no such file
}
