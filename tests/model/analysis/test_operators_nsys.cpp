// SPDX-License-Identifier: MIT
// On an nsys export of PyTorch (autograd NVTX ranges), the operator table against the NVTX
// projection computed independently: the ranges and the launching calls read with SQL, the
// containment and the grouping done here, none of Strobe's model.

#include "formats/open.h"
#include "model/analysis/operators.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace strobe {
namespace {

const char* const kH100 = "nsys2026.2-h100-2gpu-nvtx.sqlite";

// PyTorch's per-call suffixes, cut at the first one (not at the start of the name).
std::string operatorName(const std::string& text) {
    std::size_t cut = text.size();
    for (const char* s : {", seq = ", ", op_id = ", ", sizes = ", ", input_op_ids = "}) {
        const std::size_t at = text.find(s);
        if (at != std::string::npos && at > 0)
            cut = std::min(cut, at);
    }
    return text.substr(0, cut);
}

bool isOperatorRange(const std::string& text) {
    return text.find(", seq = ") != std::string::npos ||
           text.find(", op_id = ") != std::string::npos;
}

struct Expected {
    std::uint64_t calls = 0;
    std::int64_t hostTotal = 0;
    std::int64_t deviceTotal = 0;
};

TEST(OperatorsNsys, TableEqualsTheNvtxProjectionComputedFromSql) {
    const std::string path = test::fixturePath(kH100);
    // Every GPU operation's launching call: thread, start, and the operation's duration.
    const auto launches = test::query(
        path,
        "WITH ops AS ("
        "  SELECT correlationId, globalPid, end - start AS d FROM CUPTI_ACTIVITY_KIND_KERNEL"
        "  UNION ALL SELECT correlationId, globalPid, end - start FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY"
        "  UNION ALL SELECT correlationId, globalPid, end - start FROM "
        "CUPTI_ACTIVITY_KIND_MEMSET)"
        " SELECT c.globalTid, c.start, o.d FROM ops o JOIN CUPTI_ACTIVITY_KIND_RUNTIME c"
        " ON c.correlationId = o.correlationId AND (c.globalTid >> 24) = (o.globalPid >> 24)");
    ASSERT_GT(launches.size(), 1000u);
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> byThread;
    for (const auto& row : launches)
        byThread[std::stoll(row[0])].emplace_back(std::stoll(row[1]), std::stoll(row[2]));
    for (auto& [tid, v] : byThread)
        std::sort(v.begin(), v.end());
    const auto ranges = test::query(
        path, "SELECT n.globalTid, n.start, n.end, coalesce(n.text, s.value) FROM NVTX_EVENTS n"
              " LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 AND n.end IS NOT "
              "NULL");
    std::map<std::string, Expected> want;
    for (const auto& row : ranges) {
        if (!isOperatorRange(row[3]))
            continue;
        const std::int64_t tid = std::stoll(row[0]), start = std::stoll(row[1]),
                           end = std::stoll(row[2]);
        Expected& e = want[operatorName(row[3])];
        ++e.calls;
        e.hostTotal += end - start;
        const auto& v = byThread[tid];
        auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(start, std::int64_t(0)));
        for (; it != v.end() && it->first < end; ++it)
            e.deviceTotal += it->second;
    }
    ASSERT_GT(want.size(), 20u);

    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const OperatorForest forest = buildOperatorForest(*r.trace);
    EXPECT_EQ(forest.warnings().crossing, 0u);
    const OperatorTable table = operatorTable(*r.trace, forest);
    std::size_t compared = 0;
    for (const OperatorRow& row : table.rows) {
        if (row.noOperator)
            continue;
        const auto it = want.find(row.name.toStdString());
        ASSERT_NE(it, want.end()) << row.name.toStdString();
        EXPECT_EQ(row.calls, it->second.calls) << row.name.toStdString();
        EXPECT_EQ(row.hostTotal, it->second.hostTotal) << row.name.toStdString();
        EXPECT_EQ(row.deviceTotal, it->second.deviceTotal) << row.name.toStdString();
        EXPECT_GE(row.hostTotal, row.hostSelf);
        EXPECT_GE(row.deviceTotal, row.deviceSelf);
        ++compared;
    }
    EXPECT_EQ(compared, want.size());
}

} // namespace
} // namespace strobe
