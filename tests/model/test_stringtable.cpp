// SPDX-License-Identifier: MIT
// Interning: one id per distinct string, whatever order and whatever memo slot names share.
#include "model/stringtable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace strobe;

TEST(StringTable, EveryDistinctStringKeepsOneIdInAnyOrder) {
    StringTable t;
    std::vector<std::string> names;
    for (int i = 0; i < 20'000; ++i) // five times the memo's slots: many share one
        names.push_back("aten::op_" + std::to_string(i));
    names.push_back(std::string("with\0nul", 8));
    names.push_back("with");
    std::vector<StringId> ids;
    for (const std::string& n : names)
        ids.push_back(t.intern(n));
    EXPECT_EQ(t.size(), names.size() + 1);
    EXPECT_EQ(t.intern(""), 0U);
    std::vector<std::size_t> order(names.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    for (std::size_t i : order) {
        ASSERT_EQ(t.intern(names[i]), ids[i]) << names[i];
        ASSERT_EQ(t.view(ids[i]), names[i]);
    }
    EXPECT_EQ(t.size(), names.size() + 1);
}

TEST(StringTable, NamesSharingAMemoSlotAlternate) {
    // Two names whose unseeded hashes pick the same slot of the 4096.
    const auto slot = [](const std::string& s) { return std::hash<std::string_view>{}(s)&4095; };
    const std::string a = "kernel_0";
    std::string b;
    for (int i = 1; b.empty(); ++i) {
        const std::string c = "kernel_" + std::to_string(i);
        if (slot(c) == slot(a))
            b = c;
    }
    StringTable t;
    const StringId ia = t.intern(a), ib = t.intern(b);
    ASSERT_NE(ia, ib);
    for (int round = 0; round < 10; ++round) {
        EXPECT_EQ(t.intern(a), ia);
        EXPECT_EQ(t.intern(b), ib);
    }
    EXPECT_EQ(t.size(), 3U);
}
