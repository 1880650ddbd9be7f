// SPDX-License-Identifier: MIT
// The JSON contract of every strobe-cli command, read with a real parser (QJsonDocument): each
// row of every --format json output holds exactly the CSV form's values with the right JSON
// types (the CSV itself is checked against SQL by the command tests), `null` where the CSV field
// is empty; `info --json` against SQL and against its readable form.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/sqlitequery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringBuilder>
#include <gtest/gtest.h>
#include <set>

using namespace strobe;
using namespace strobe::test;

namespace {

using Command = int (*)(const QStringList&, cli::Io);

struct JsonCase {
    const char* name;
    Command command;
    QStringList extra;      // options besides the file and --format
    QStringList stringKeys; // columns that are JSON strings; every other one is a number or null
    QString rowsKey = {};   // the rows are this key's array of the top object (gaps), not the top
};

std::vector<JsonCase> cases() {
    return {
        {"kernels", &cli::runKernels, {}, {QStringLiteral("name"), QStringLiteral("api_name")}},
        {"kernel-summary", &cli::runKernelSummary, {}, {QStringLiteral("name")}},
        {"kernel-summary --base",
         &cli::runKernelSummary,
         {QStringLiteral("--base")},
         {QStringLiteral("name")}},
        {"memory-summary", &cli::runMemorySummary, {}, {QStringLiteral("direction")}},
        {"nvtx-summary",
         &cli::runNvtxSummary,
         {},
         {QStringLiteral("range"), QStringLiteral("style")}},
        {"gaps",
         &cli::runGaps,
         {},
         {QStringLiteral("cause"), QStringLiteral("detail")},
         QStringLiteral("gaps")},
    };
}

QJsonDocument parse(const QString& text) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &pe);
    EXPECT_EQ(pe.error, QJsonParseError::NoError) << pe.errorString().toStdString();
    return doc;
}

// The keys of the first object in `text`, in the order they are written.
QStringList keyOrder(const QString& text) {
    QStringList keys;
    const qsizetype end = text.indexOf(u'}');
    static const QRegularExpression key(QStringLiteral("[{,] *\"([a-z_]+)\": "));
    auto it = key.globalMatch(text.left(end));
    while (it.hasNext())
        keys << it.next().captured(1);
    return keys;
}

class JsonOnFixture : public ::testing::TestWithParam<QString> {};

TEST_P(JsonOnFixture, EveryCommandsJsonHoldsTheCsvValues) {
    const QString path = fixture(GetParam().toUtf8().constData());
    for (const JsonCase& c : cases()) {
        SCOPED_TRACE(c.name);
        const CliResult csv = runCli(c.command, QStringList{path} + c.extra);
        const CliResult json =
            runCli(c.command, QStringList{path} + c.extra +
                                  QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        ASSERT_EQ(csv.status, 0) << csv.err.toStdString();
        ASSERT_EQ(json.status, 0) << json.err.toStdString();
        EXPECT_TRUE(json.err.isEmpty());
        const auto records = parseCsv(csv.out);
        ASSERT_FALSE(records.empty());
        const QStringList header = records.front();
        const QJsonDocument doc = parse(json.out);
        ASSERT_TRUE(c.rowsKey.isEmpty() ? doc.isArray() : doc[c.rowsKey].isArray());
        const QJsonArray rows = c.rowsKey.isEmpty() ? doc.array() : doc[c.rowsKey].toArray();
        ASSERT_EQ(qsizetype(records.size()) - 1, rows.size());
        if (!rows.isEmpty()) {
            const QString text =
                c.rowsKey.isEmpty()
                    ? json.out
                    : json.out.mid(json.out.indexOf(u'"' + c.rowsKey + QStringLiteral("\": [")));
            EXPECT_EQ(keyOrder(text), header) << "keys in the CSV's column order";
        }
        for (qsizetype i = 0; i < rows.size(); ++i) {
            ASSERT_TRUE(rows[i].isObject());
            const QJsonObject o = rows[i].toObject();
            const QStringList& f = records[std::size_t(i) + 1];
            ASSERT_EQ(o.size(), header.size()) << "row " << i;
            for (qsizetype col = 0; col < header.size(); ++col) {
                const QString& key = header[col];
                ASSERT_TRUE(o.contains(key)) << key.toStdString();
                const QJsonValue v = o[key];
                const std::string where = "row " + std::to_string(i) + " " + key.toStdString();
                if (f[col].isEmpty() && !c.stringKeys.contains(key)) {
                    EXPECT_TRUE(v.isNull()) << where;
                } else if (c.stringKeys.contains(key)) {
                    ASSERT_TRUE(v.isString() || (v.isNull() && f[col].isEmpty())) << where;
                    EXPECT_EQ(v.toString(), f[col]) << where;
                } else if (f[col].contains(u'.')) {
                    ASSERT_TRUE(v.isDouble()) << where;
                    EXPECT_EQ(v.toDouble(), f[col].toDouble()) << where;
                } else {
                    ASSERT_TRUE(v.isDouble()) << where; // JSON numbers: integral ones too
                    bool ok = false;
                    const qint64 n = f[col].toLongLong(&ok);
                    ASSERT_TRUE(ok) << where << " is not a number in the CSV";
                    EXPECT_EQ(v.toInteger(), n) << where;
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, JsonOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             QString n = info.param;
                             n.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]")),
                                       QStringLiteral("_"));
                             return n.toStdString();
                         });

// Kernels whose correlation id matches no CUDA API call of their process: api_name and api_tid
// are null in JSON (empty in CSV), and nowhere else.
TEST(CliJson, KernelsWithoutALaunchingCallAreNull) {
    const QString path = fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const std::string p = path.toStdString();
    const std::int64_t orphans = queryInt(
        p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE (correlationId, globalPid) "
           "NOT IN (SELECT correlationId, globalTid & 0xFFFFFFFFFF000000 FROM "
           "CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1) AND correlationId IS NOT "
           "NULL)");
    ASSERT_EQ(orphans, 1810); // the file's kernels whose launch fell outside the export window
    const CliResult json =
        runCli(&cli::runKernels, {path, QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(json.status, 0);
    const QJsonArray rows = parse(json.out).array();
    std::int64_t nullName = 0, nullTid = 0, both = 0;
    for (const QJsonValue& r : rows) {
        const QJsonObject o = r.toObject();
        const bool n = o[QStringLiteral("api_name")].isNull();
        const bool t = o[QStringLiteral("api_tid")].isNull();
        nullName += n;
        nullTid += t;
        both += n && t;
        if (!n) {
            EXPECT_TRUE(o[QStringLiteral("api_name")].isString());
            EXPECT_TRUE(o[QStringLiteral("api_tid")].isDouble());
        }
    }
    EXPECT_EQ(nullName, orphans);
    EXPECT_EQ(nullTid, orphans);
    EXPECT_EQ(both, orphans);
    EXPECT_EQ(rows.size(), queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

// Rows of `table` (0 when absent); an eventClass filter applies only where the column exists.
std::int64_t countWhere(const std::string& p, const std::string& table, std::string where) {
    if (!hasTable(p, table))
        return 0;
    if (where.find("eventClass") != std::string::npos && !hasColumn(p, table, "eventClass"))
        where.clear();
    return queryInt(p, "SELECT count(*) FROM " + table + (where.empty() ? "" : " WHERE " + where));
}

class InfoOnFixture : public ::testing::TestWithParam<QString> {};

TEST_P(InfoOnFixture, InfoJsonMatchesSqlAndTheReadableForm) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const std::string p = path.toStdString();
    const CliResult r =
        runCli(&cli::runCommandLine, {QStringLiteral("info"), path, QStringLiteral("--json")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const QJsonObject o = parse(r.out).object();
    EXPECT_EQ(o[QStringLiteral("file")].toString(), path);
    EXPECT_EQ(o[QStringLiteral("format")].toString(), QStringLiteral("nsys-sqlite"));
    const QJsonObject c = o[QStringLiteral("counts")].toObject();
    const std::map<QString, std::int64_t> want = {
        {QStringLiteral("kernels"), countWhere(p, "CUPTI_ACTIVITY_KIND_KERNEL", "")},
        {QStringLiteral("memcpys"), countWhere(p, "CUPTI_ACTIVITY_KIND_MEMCPY", "")},
        {QStringLiteral("memsets"), countWhere(p, "CUPTI_ACTIVITY_KIND_MEMSET", "")},
        {QStringLiteral("cuda_api_calls"),
         countWhere(p, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)")},
        {QStringLiteral("nvtx_ranges"), countWhere(p, "NVTX_EVENTS", "eventType IN (59,60,70,71)")},
        {QStringLiteral("nvtx_marks"), countWhere(p, "NVTX_EVENTS", "eventType = 34")},
        {QStringLiteral("osrt_calls"), countWhere(p, "OSRT_API", "eventClass = 27")},
        {QStringLiteral("cpu_ops"), 0}, // operator events are Kineto's; nsys exports have none
    };
    ASSERT_EQ(c.size(), qsizetype(want.size()));
    std::int64_t total = 0;
    for (const auto& [key, n] : want) {
        ASSERT_TRUE(c[key].isDouble()) << key.toStdString();
        EXPECT_EQ(c[key].toInteger(), n) << key.toStdString();
        total += n;
    }
    std::int64_t laneEvents = 0;
    for (const QJsonValue& l : o[QStringLiteral("lanes")].toArray())
        laneEvents += l.toObject()[QStringLiteral("events")].toInteger();
    EXPECT_EQ(laneEvents, total);
    // GPUs: named by TARGET_INFO_GPU where the export has the row.
    for (const QJsonValue& gv : o[QStringLiteral("gpus")].toArray()) {
        const QJsonObject g = gv.toObject();
        const std::string id = std::to_string(g[QStringLiteral("id")].toInteger());
        const auto rows =
            hasTable(p, "TARGET_INFO_GPU")
                ? query(p, "SELECT name, smCount FROM TARGET_INFO_GPU WHERE id = " + id)
                : std::vector<std::vector<std::string>>{};
        EXPECT_EQ(g[QStringLiteral("name")].toString().toStdString(),
                  rows.empty() ? std::string() : rows[0][0]);
        EXPECT_EQ(g[QStringLiteral("sm_count")].toInteger(),
                  rows.empty() ? 0 : std::stoll(rows[0][1]));
    }
    // The readable form prints the same counts.
    const CliResult text = runCli(&cli::runCommandLine, {QStringLiteral("info"), path});
    ASSERT_EQ(text.status, 0);
    const QString events =
        QString::number(c[QStringLiteral("kernels")].toInteger()) % QStringLiteral(" kernels, ") %
        QString::number(c[QStringLiteral("memcpys")].toInteger()) % QStringLiteral(" memcpys, ") %
        QString::number(c[QStringLiteral("memsets")].toInteger()) % QStringLiteral(" memsets, ") %
        QString::number(c[QStringLiteral("cuda_api_calls")].toInteger()) %
        QStringLiteral(" CUDA API calls, ") %
        QString::number(c[QStringLiteral("nvtx_ranges")].toInteger()) %
        QStringLiteral(" NVTX ranges, ") %
        QString::number(c[QStringLiteral("nvtx_marks")].toInteger()) %
        QStringLiteral(" NVTX marks, ") %
        QString::number(c[QStringLiteral("osrt_calls")].toInteger()) %
        QStringLiteral(" OS runtime calls\n");
    EXPECT_TRUE(text.out.contains(QStringLiteral("Events:      ") % events))
        << text.out.toStdString();
    const QJsonArray range = o[QStringLiteral("time_range_ns")].toArray();
    ASSERT_EQ(range.size(), 2);
    EXPECT_TRUE(text.out.contains(QStringLiteral("Time range:  ") %
                                  QString::number(range[0].toInteger()) % QStringLiteral(" .. ") %
                                  QString::number(range[1].toInteger()) % QStringLiteral(" ns")));
    EXPECT_EQ(
        o[QStringLiteral("threads")].toInteger(),
        text.out.section(QStringLiteral("Threads:     "), 1).section(u'\n', 0, 0).toLongLong());
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, InfoOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             QString n = info.param;
                             n.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]")),
                                       QStringLiteral("_"));
                             return n.toStdString();
                         });

} // namespace
