// SPDX-License-Identifier: MIT
// strobe-cli analyze: the header, the CSV against the JSON and the text, rule selection that
// keeps each finding's row, thresholds that change the outcome, one rule's evidence, the skipped
// rules on stderr, and the usage errors' sentences.
#include "model/analysis/findings.h"
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/kinetoscan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

const QString kHeader = QStringLiteral("position,rule,time_ns,share_percent,finding,next_step");

CliResult analyze(const QStringList& args) {
    return runCli(&cli::runAnalyze, args);
}

// Every trace the tests read: the nsys fixtures and the Kineto ones.
QStringList traces() {
    QStringList out;
    for (const QString& f : allFixtures())
        out << fixture(f.toUtf8().constData());
    for (const char* k : {"resnet50-kineto-2021.pt.trace.json.gz", "hta-sampled-rank0.json.gz",
                          "hta-v100-memory-events.json.gz", "small-before-fix.trace.json"})
        out << QString::fromStdString(kinetoFixturePath(k));
    return out;
}

// The rules to run one by one on the trace at `traceIndex`: every rule that has a row in `all`
// (the whole run's rows), and one rule that has none, a different one on each trace, so that the
// fixtures together try every rule that finds nothing. Running all sixteen on every trace took
// minutes under the sanitizers and tested nothing more.
std::vector<QString> rulesToTry(const std::vector<QStringList>& all, std::size_t traceIndex) {
    std::vector<QString> fired, quiet;
    for (std::size_t r = 0; r < kFindingRuleCount; ++r) {
        const QString id = findingRuleId(FindingRule(r));
        const bool found = std::any_of(all.begin(), all.end(),
                                       [&](const QStringList& row) { return row[1] == id; });
        (found ? fired : quiet).push_back(id);
    }
    if (!quiet.empty())
        fired.push_back(quiet[traceIndex % quiet.size()]);
    return fired;
}

} // namespace

TEST(CmdAnalyze, CsvJsonAndTextAgreeOnEveryFixture) {
    for (const QString& path : traces()) {
        SCOPED_TRACE(path.toStdString());
        const auto rows = csvRows(&cli::runAnalyze, {path}, kHeader);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            EXPECT_EQ(rows[i][0], QString::number(i + 1));
            ASSERT_TRUE(findingRuleFromId(rows[i][1]).has_value()) << rows[i][1].toStdString();
            if (i > 0) { // ranked by the time at stake
                EXPECT_GE(rows[i - 1][2].toLongLong(), rows[i][2].toLongLong());
            }
            const double share = rows[i][3].toDouble();
            EXPECT_GE(share, 0.0);
            EXPECT_LE(share, 100.0);
        }
        const CliResult json = analyze({path, QStringLiteral("--format"), QStringLiteral("json")});
        ASSERT_EQ(json.status, 0);
        EXPECT_TRUE(json.err.isEmpty()) << json.err.toStdString(); // skipped rules in the JSON
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonArray findings = o[QStringLiteral("findings")].toArray();
        ASSERT_EQ(std::size_t(findings.size()), rows.size());
        for (qsizetype i = 0; i < findings.size(); ++i) {
            const QJsonObject f = findings[i].toObject();
            EXPECT_EQ(f[QStringLiteral("rule")].toString(), rows[std::size_t(i)][1]);
            EXPECT_EQ(QString::number(f[QStringLiteral("time_ns")].toInteger()),
                      rows[std::size_t(i)][2]);
            EXPECT_EQ(f[QStringLiteral("finding")].toString(), rows[std::size_t(i)][4]);
        }
        // The CSV run names each skipped rule on stderr, the JSON in "skipped".
        const CliResult csv = analyze({path});
        const QJsonArray skipped = o[QStringLiteral("skipped")].toArray();
        EXPECT_EQ(csv.err.count(QStringLiteral("strobe-cli analyze: ")), skipped.size());
        for (const auto& s : skipped)
            EXPECT_TRUE(csv.err.contains(s.toObject()[QStringLiteral("reason")].toString()));
        const CliResult text = analyze({path, QStringLiteral("--format"), QStringLiteral("text")});
        ASSERT_EQ(text.status, 0);
        EXPECT_EQ(text.out.count(QStringLiteral("\n   Next step: ")), qsizetype(rows.size()));
        EXPECT_EQ(text.out.count(QStringLiteral("Not run: ")), skipped.size());
        if (rows.empty()) {
            EXPECT_TRUE(text.out.startsWith(QStringLiteral("No findings:")));
        }
    }
}

TEST(CmdAnalyze, RuleSelectionKeepsEachFindingsRow) {
    const QStringList paths = traces();
    for (std::size_t t = 0; t < std::size_t(paths.size()); ++t) {
        const QString& path = paths[qsizetype(t)];
        SCOPED_TRACE(path.toStdString());
        const auto all = csvRows(&cli::runAnalyze, {path}, kHeader);
        for (const QString& id : rulesToTry(all, t)) {
            const auto only =
                csvRows(&cli::runAnalyze, {path, QStringLiteral("--rule"), id}, kHeader);
            std::vector<QStringList> expected;
            for (const QStringList& row : all)
                if (row[1] == id)
                    expected.push_back(row.mid(1));
            ASSERT_EQ(only.size(), expected.size()) << id.toStdString();
            for (std::size_t i = 0; i < only.size(); ++i) {
                EXPECT_EQ(only[i][0], QString::number(i + 1)); // renumbered
                EXPECT_EQ(only[i].mid(1), expected[i]);
            }
        }
    }
}

TEST(CmdAnalyze, EvidenceListsOneRulesRows) {
    bool sawEvidence = false;
    const QStringList paths = traces();
    for (std::size_t t = 0; t < std::size_t(paths.size()); ++t) {
        const QString& path = paths[qsizetype(t)];
        SCOPED_TRACE(path.toStdString());
        const auto all = csvRows(&cli::runAnalyze, {path}, kHeader);
        for (const QString& id : rulesToTry(all, t)) {
            const CliResult csv =
                analyze({path, QStringLiteral("--rule"), id, QStringLiteral("--evidence")});
            ASSERT_EQ(csv.status, 0) << csv.err.toStdString();
            const auto rows = parseCsv(csv.out);
            ASSERT_FALSE(rows.empty());
            const CliResult json =
                analyze({path, QStringLiteral("--rule"), id, QStringLiteral("--evidence"),
                         QStringLiteral("--format"), QStringLiteral("json")});
            const QJsonArray array = QJsonDocument::fromJson(json.out.toUtf8()).array();
            EXPECT_EQ(std::size_t(array.size()), rows.size() - 1);
            for (const auto& row : array)
                EXPECT_EQ(row.toObject().keys().size(), rows.front().size());
            sawEvidence = sawEvidence || rows.size() > 1;
        }
    }
    EXPECT_TRUE(sawEvidence) << "no rule found evidence on any fixture";
}

TEST(CmdAnalyze, ThresholdsChangeTheOutcome) {
    // ResNet-50's data-loading finding goes away when the threshold is above its share.
    const auto rows =
        csvRows(&cli::runAnalyze,
                {QString::fromStdString(kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz")),
                 QStringLiteral("--rule"), QStringLiteral("data_loading")},
                kHeader);
    ASSERT_EQ(rows.size(), 1u);
    const double share = rows[0][3].toDouble();
    const auto above =
        csvRows(&cli::runAnalyze,
                {QString::fromStdString(kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz")),
                 QStringLiteral("--rule"), QStringLiteral("data_loading"), QStringLiteral("--set"),
                 QStringLiteral("data_loading.threshold=%1").arg(share + 1)},
                kHeader);
    EXPECT_TRUE(above.empty());
}

TEST(CmdAnalyze, UsageErrorsSaySo) {
    const QString file = fixture("nsys2024.5-cloverleaf.sqlite");
    struct Case {
        QStringList args;
        QString says;
    };
    const std::vector<Case> cases = {
        {{file, QStringLiteral("--rule"), QStringLiteral("gpu_gap")},
         QStringLiteral("--rule wants rule ids (cuda_memcpy_async, ")},
        {{file, QStringLiteral("--evidence")},
         QStringLiteral("--evidence lists one rule's evidence: give exactly one --rule ID")},
        {{file, QStringLiteral("--evidence"), QStringLiteral("--rule"),
          QStringLiteral("gpu_gaps,small_grid")},
         QStringLiteral("give exactly one --rule ID")},
        {{file, QStringLiteral("--evidence"), QStringLiteral("--rule"), QStringLiteral("gpu_gaps"),
          QStringLiteral("--format"), QStringLiteral("text")},
         QStringLiteral("--evidence prints a table: csv or json")},
        {{file, QStringLiteral("--set"), QStringLiteral("gpu_gaps.gaps=3")},
         QStringLiteral("--set wants RULE.KEY=VALUE with KEY one of gpu_gaps.gap, ")},
        {{file, QStringLiteral("--set"), QStringLiteral("data_loading.threshold=101")},
         QStringLiteral("--set data_loading.threshold wants a percentage from 0 to 100, not "
                        "'101'")},
        {{file, QStringLiteral("--set"), QStringLiteral("gpu_time_util.chunks=2.5")},
         QStringLiteral("--set gpu_time_util.chunks wants a whole number from 1 to 1e6, not "
                        "'2.5'")},
        {{file, QStringLiteral("--set"), QStringLiteral("gpu_gaps.gap=-1")},
         QStringLiteral("--set gpu_gaps.gap wants milliseconds (0 to 1e9), not '-1'")},
        {{file, QStringLiteral("--format"), QStringLiteral("xml")},
         QStringLiteral("--format must be csv, json or text, not 'xml'")},
    };
    for (const Case& c : cases) {
        const CliResult r = analyze(c.args);
        EXPECT_EQ(r.status, 2) << c.args.join(u' ').toStdString();
        EXPECT_TRUE(r.err.contains(c.says)) << r.err.toStdString();
        EXPECT_TRUE(r.out.isEmpty());
    }
    const CliResult missing = analyze({QStringLiteral("/nonexistent/trace.sqlite")});
    EXPECT_EQ(missing.status, 1);
}
