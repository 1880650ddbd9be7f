// SPDX-License-Identifier: MIT
// The rank summary file: a real rank's summary and a made-up one with every optional field
// round-trip exactly and byte for byte; anything else is one sentence.
#include "formats/open.h"
#include "model/job/summaryjson.h"
#include "tests/model/job/jobtestdata.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <random>

using namespace strobe;

namespace {

RankSummary fixtureSummary() {
    const LoadResult r = loadTrace(
        QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-sampled-rank1.json.gz"), LoadOptions{});
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    if (!r.ok())
        return {};
    const auto ranks = summarizeTrace(*r.trace, KernelClassTable::defaults());
    EXPECT_EQ(ranks.size(), 1u);
    return ranks.front();
}

RankSummary everyField() {
    test::SynthJob spec;
    spec.processGroup = QStringLiteral("tp:0");
    RankSummary s = spec.summaries()[1];
    s.pid = 4242;
    s.rankSource = RankSource::FileName;
    s.whole = {10, 20, 5, 3, 2, 40};
    s.htaWindow = RankBreakdown{1, 2, 1, 0, 7, 12};
    s.steps[0].breakdown = {4, 3, 2, 1, 0, 100'000'000};
    s.collectives[0].bytes.reset();
    s.collectives[1].streamOrdinal = 2;
    s.busy.assign(kUtilisationBuckets, 0);
    s.busy[7] = 123;
    s.warnings << QStringLiteral("A warning with \"quotes\" and \u00e9.");
    s.clockOriginNs = -5; // a clock before the epoch is still a clock
    return s;
}

// The one sentence a damaged text gives.
QString errorOf(const QByteArray& json) {
    QString error;
    EXPECT_FALSE(rankSummaryFromJson(json, &error).has_value()) << json.left(200).toStdString();
    return error;
}

// A valid summary with `key` set to `value`.
QByteArray with(const QString& key, const QJsonValue& value) {
    QJsonObject o = QJsonDocument::fromJson(rankSummaryToJson(everyField())).object();
    o.insert(key, value);
    return QJsonDocument(o).toJson();
}

} // namespace

TEST(RankSummaryJson, RoundTripsExactlyAndDeterministically) {
    for (const RankSummary& s : {fixtureSummary(), everyField()}) {
        const QByteArray json = rankSummaryToJson(s);
        QString error;
        const auto back = rankSummaryFromJson(json, &error);
        ASSERT_TRUE(back.has_value()) << error.toStdString();
        EXPECT_EQ(*back, s);
        EXPECT_EQ(rankSummaryToJson(*back), json);
        EXPECT_EQ(rankSummaryToJson(s), json);
    }
}

TEST(RankSummaryJson, AFileAppearsWholeAndReadsBack) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("r.summary.json"));
    QString error;
    ASSERT_TRUE(writeRankSummaryFile(path, everyField(), &error)) << error.toStdString();
    EXPECT_EQ(readRankSummaryFile(path, &error), everyField());
    EXPECT_FALSE(writeRankSummaryFile(dir.filePath(QStringLiteral("no/such/dir/x.summary.json")),
                                      everyField(), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("cannot be written"))) << error.toStdString();
}

TEST(RankSummaryJson, AnotherVersionIsOneSentence) {
    EXPECT_EQ(errorOf(with(QStringLiteral("version"), 2)),
              QStringLiteral("is a rank summary of version 2; this Strobe reads version 1 "
                             "(summarize the trace again)"));
    EXPECT_EQ(errorOf(with(QStringLiteral("version"), QStringLiteral("1"))),
              QStringLiteral("is a rank summary of version unknown; this Strobe reads version 1 "
                             "(summarize the trace again)"));
}

TEST(RankSummaryJson, DamageIsOneSentenceNamingTheField) {
    const QByteArray good = rankSummaryToJson(everyField());
    EXPECT_EQ(errorOf(good.left(good.size() / 2)),
              QStringLiteral("is not a rank summary: it is not a JSON object"));
    EXPECT_EQ(errorOf("[1, 2]"), QStringLiteral("is not a rank summary: it is not a JSON object"));
    EXPECT_EQ(errorOf(with(QStringLiteral("format"), QStringLiteral("chrome-trace"))),
              QStringLiteral("is not a rank summary: its format is not \"strobe-rank-summary\""));
    const auto damaged = [](const QString& key, const QJsonValue& value) {
        return errorOf(with(key, value)).remove(QStringLiteral("is a damaged rank summary: "));
    };
    EXPECT_EQ(damaged(QStringLiteral("rank"), -1),
              QStringLiteral("rank is not an integer in range"));
    EXPECT_EQ(damaged(QStringLiteral("rank"), 1.5),
              QStringLiteral("rank is not an integer in range"));
    EXPECT_EQ(damaged(QStringLiteral("rank_source"), QStringLiteral("guess")),
              QStringLiteral("rank_source is not recorded, file-name or order"));
    EXPECT_EQ(damaged(QStringLiteral("gpu_span"), QJsonArray{5, 1}),
              QStringLiteral("gpu_span ends before it starts"));
    EXPECT_EQ(damaged(QStringLiteral("whole"),
                      QJsonObject{{QStringLiteral("compute_ns"), 1},
                                  {QStringLiteral("communication_ns"), 2},
                                  {QStringLiteral("exposed_communication_ns"), 3},
                                  {QStringLiteral("memory_ns"), 0},
                                  {QStringLiteral("idle_ns"), 0},
                                  {QStringLiteral("span_ns"), 10}}),
              QStringLiteral("whole has parts larger than their whole"));
    EXPECT_EQ(damaged(QStringLiteral("steps"), QJsonArray{QJsonObject{}}),
              QStringLiteral("steps[0].step is missing"));
    QJsonArray steps =
        QJsonDocument::fromJson(good).object().value(QStringLiteral("steps")).toArray();
    const QJsonValue first = steps[0];
    steps[0] = steps[1];
    steps[1] = first;
    EXPECT_EQ(damaged(QStringLiteral("steps"), steps),
              QStringLiteral("steps[1] starts before the step above it"));
    const QJsonObject columns =
        QJsonDocument::fromJson(good).object().value(QStringLiteral("collectives")).toObject();
    const auto withColumn = [&](const QString& key, const QJsonValue& value) {
        QJsonObject c = columns;
        c.insert(key, value);
        return damaged(QStringLiteral("collectives"), c);
    };
    QJsonArray ends = columns.value(QStringLiteral("end_ns")).toArray();
    ends[2] = 5;
    EXPECT_EQ(withColumn(QStringLiteral("end_ns"), ends),
              QStringLiteral("collectives[2] ends before it starts"));
    QJsonArray kinds = columns.value(QStringLiteral("kind")).toArray();
    kinds[3] = 1; // one kind only: index 1 is past the list
    EXPECT_EQ(withColumn(QStringLiteral("kind"), kinds),
              QStringLiteral("collectives[3].kind is not an integer in range"));
    EXPECT_EQ(withColumn(QStringLiteral("order"), QJsonArray{1, 2}),
              QStringLiteral("collectives' columns differ in length"));
    EXPECT_EQ(withColumn(QStringLiteral("kinds"), QJsonArray{QString()}),
              QStringLiteral("collectives.kinds holds a non-name"));
    EXPECT_EQ(damaged(QStringLiteral("collectives"), QJsonArray{}),
              QStringLiteral("collectives is not an object"));
    EXPECT_EQ(damaged(QStringLiteral("busy_ns"), QJsonArray{1, 2, 3}),
              QStringLiteral("busy_ns does not have 512 buckets"));
    EXPECT_EQ(damaged(QStringLiteral("warnings"), QJsonArray{7}),
              QStringLiteral("warnings holds something other than sentences"));
    EXPECT_EQ(damaged(QStringLiteral("clock_origin_ns"), QStringLiteral("now")),
              QStringLiteral("clock_origin_ns is not an integer in range"));
    QJsonObject o = QJsonDocument::fromJson(good).object();
    o.remove(QStringLiteral("collectives"));
    EXPECT_EQ(errorOf(QJsonDocument(o).toJson()),
              QStringLiteral("is a damaged rank summary: collectives is missing"));
}

TEST(RankSummaryJson, AFileThatIsNotOneIsNamed) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rank-0.summary.json"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(with(QStringLiteral("version"), 9));
    f.close();
    QString error;
    EXPECT_FALSE(readRankSummaryFile(path, &error).has_value());
    EXPECT_EQ(error, path + QStringLiteral(" is a rank summary of version 9; this Strobe reads "
                                           "version 1 (summarize the trace again)."));
    EXPECT_FALSE(readRankSummaryFile(dir.filePath(QStringLiteral("absent.summary.json")), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("cannot be read"))) << error.toStdString();
}

// simdjson judges the syntax, strictly (RFC 8259): damaged text that Qt's parser refuses is "not
// a JSON object", and nothing Qt refuses is read. (Qt is the more lenient of the two: it takes
// `7.`, `.5`, unknown escapes and raw control characters, which simdjson refuses.) Every byte
// of a small summary cut off, and replaced by each of the characters that change JSON's
// structure or its numbers and strings.
TEST(RankSummaryJson, TextQtRefusesIsNotJson) {
    test::SynthJob spec;
    spec.steps = 1;
    spec.perStep = 2;
    spec.processGroup = QStringLiteral("pg");
    RankSummary s = spec.summaries()[0];
    s.busy.clear();
    s.warnings << QStringLiteral("caf\u00e9 \"quoted\"\n");
    const QByteArray good = rankSummaryToJson(s);
    const QString notJson = QStringLiteral("is not a rank summary: it is not a JSON object");
    const auto check = [&](const QByteArray& text, const std::string& what) {
        QJsonParseError parse{};
        const bool qtReads = !QJsonDocument::fromJson(text, &parse).isNull() &&
                             parse.error == QJsonParseError::NoError;
        QString error;
        const auto read = rankSummaryFromJson(text, &error);
        if (!qtReads) {
            EXPECT_EQ(error, notJson) << what;
        }
        if (read) {
            EXPECT_TRUE(qtReads) << what;
        }
    };
    for (qsizetype n = 0; n < good.size(); n += 3)
        check(good.left(n), "cut at " + std::to_string(n));
    for (qsizetype i = 0; i < good.size(); ++i) {
        for (const char c : {'{', '}', '[', ']', ',', ':', '"', '\\', '-', '.', 'e', '0', 'x',
                             '\x01', '\xff', ' '}) {
            QByteArray text = good;
            text[i] = c;
            check(text, "'" + std::string(1, c) + "' at " + std::to_string(i) + ": " +
                            text.mid(std::max<qsizetype>(0, i - 20), 40).toStdString());
        }
    }
}

// Numbers as QJsonValue reads them: integral doubles count, integer text keeps all 64 bits,
// escapes and UTF-8 decode, unknown members are ignored.
TEST(RankSummaryJson, NumbersAndStringsReadAsJsonMeansThem) {
    const RankSummary s = everyField();
    QJsonObject o = QJsonDocument::fromJson(rankSummaryToJson(s)).object();
    o.insert(QStringLiteral("clock_origin_ns"), QJsonValue(qint64(9'223'372'036'854'775'807)));
    o.insert(QStringLiteral("unknown_member"), QJsonArray{1, QJsonObject{}, QString()});
    QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Compact);
    text.replace("\"rank\":1,", "\"rank\":1.0e0,");
    text.replace("\"file\":\"", "\"file\":\"\\u00e9\\ud83d\\ude00\\n/");
    QString error;
    const auto back = rankSummaryFromJson(text, &error);
    ASSERT_TRUE(back) << error.toStdString();
    EXPECT_EQ(back->clockOriginNs, 9'223'372'036'854'775'807);
    EXPECT_EQ(back->rank, 1u);
    EXPECT_EQ(back->file, QStringLiteral("\u00e9\U0001F600\n/") + s.file);
    text.replace("\"rank\":1.0e0,", "\"rank\":1.5,");
    EXPECT_EQ(errorOf(text), QStringLiteral("is a damaged rank summary: rank is not an integer in "
                                            "range"));
    EXPECT_EQ(errorOf(QByteArray(100'000, '[') + QByteArray(100'000, ']')),
              QStringLiteral("is not a rank summary: it is not a JSON object"));
}

// Long columns (the syntax check keeps their cells) read as short ones do: nulls, 19-digit
// integers, and each damaged cell's sentence.
TEST(RankSummaryJson, LongColumnsReadAsShortOnes) {
    test::SynthJob spec;
    spec.steps = 10;
    spec.perStep = 10;
    spec.processGroup = QStringLiteral("g");
    RankSummary s = spec.summaries()[1];
    ASSERT_EQ(s.collectives.size(), 100u);
    for (std::size_t i = 0; i < s.collectives.size(); i += 7)
        s.collectives[i].bytes.reset();
    for (std::size_t i = 3; i < s.collectives.size(); i += 11)
        s.collectives[i].processGroup.reset();
    const QByteArray json = rankSummaryToJson(s);
    QString error;
    EXPECT_EQ(rankSummaryFromJson(json, &error), s) << error.toStdString();
    s.collectives[5].bytes = 9'223'372'036'854'775'807; // 19 digits: read as text
    EXPECT_EQ(rankSummaryFromJson(rankSummaryToJson(s), &error), s) << error.toStdString();

    const QJsonObject columns =
        QJsonDocument::fromJson(json).object().value(QStringLiteral("collectives")).toObject();
    const auto withCell = [&](const char* column, qsizetype i, const QJsonValue& v) {
        QJsonObject c = columns;
        QJsonArray a = c.value(QLatin1String(column)).toArray();
        a[i] = v;
        c.insert(QLatin1String(column), a);
        QJsonObject o = QJsonDocument::fromJson(json).object();
        o.insert(QStringLiteral("collectives"), c);
        return errorOf(QJsonDocument(o).toJson(QJsonDocument::Compact))
            .remove(QStringLiteral("is a damaged rank summary: "));
    };
    EXPECT_EQ(withCell("stream", 50, QJsonValue()),
              QStringLiteral("collectives[50].stream is not an integer in range"));
    EXPECT_EQ(withCell("kind", 70, 1.5),
              QStringLiteral("collectives[70].kind is not an integer in range"));
    EXPECT_EQ(withCell("start_ns", 99, QStringLiteral("0")),
              QStringLiteral("collectives[99].start_ns is not an integer in range"));
    EXPECT_EQ(withCell("order", 64, -1),
              QStringLiteral("collectives[64].order is not an integer in range"));
    EXPECT_EQ(withCell("end_ns", 80, 0), QStringLiteral("collectives[80] ends before it starts"));
    EXPECT_EQ(withCell("process_group", 90, 1),
              QStringLiteral("collectives[90].process_group is not an integer in range"));
}

// Every length of integer, read eight digits at a time where it can be.
TEST(RankSummaryJson, IntegersOfEveryLengthReadExactly) {
    std::int64_t v = 0;
    for (int digits = 1; digits <= 19; ++digits) {
        v = v * 10 + (digits * 7) % 10 + (digits == 1 ? 1 : 0); // 1, 14, 141, 1418, ...
        for (const std::int64_t x : {v, -v, v / 3}) {
            QString error;
            const auto s = rankSummaryFromJson(
                with(QStringLiteral("clock_origin_ns"), QJsonValue(qint64(x))), &error);
            ASSERT_TRUE(s) << error.toStdString();
            EXPECT_EQ(s->clockOriginNs, x) << digits;
        }
    }
}

// Random damage, several edits at once (replaced, removed and inserted bytes, cuts) to a summary
// with long columns: never a crash (the asan preset runs this), "not a JSON object" whenever
// Qt's parser refuses the text, and nothing read that Qt refuses.
TEST(RankSummaryJson, RandomDamageQtRefusesIsNotJson) {
    test::SynthJob spec;
    spec.steps = 8;
    spec.perStep = 9;
    spec.processGroup = QStringLiteral("g\u00e9");
    RankSummary s = spec.summaries()[0];
    for (std::size_t i = 0; i < s.collectives.size(); i += 5)
        s.collectives[i].bytes.reset();
    s.busy.assign(kUtilisationBuckets, 0);
    s.warnings << QStringLiteral("w\n\"x\"");
    const QByteArray good = rankSummaryToJson(s);
    const QString notJson = QStringLiteral("is not a rank summary: it is not a JSON object");
    std::mt19937 rng(7);
    constexpr char kBytes[] = "{}[],:\"\\-.eE0123456789nulltruefalse \t\x01\x80\xc3\xa9\xff";
    int read = 0;
    for (int round = 0; round < 3000; ++round) {
        QByteArray text = good;
        const int edits = 1 + int(rng() % 4);
        for (int e = 0; e < edits && !text.isEmpty(); ++e) {
            const auto at = qsizetype(rng() % std::uint32_t(text.size()));
            const char byte = kBytes[rng() % (sizeof(kBytes) - 1)];
            switch (rng() % 4) {
            case 0:
                text[at] = byte;
                break;
            case 1:
                text.remove(at, qsizetype(1 + rng() % 8));
                break;
            case 2:
                text.insert(at, byte);
                break;
            default:
                text.truncate(at);
            }
        }
        QString error;
        const bool ours = rankSummaryFromJson(text, &error).has_value();
        read += ours ? 1 : 0;
        const bool qtReads = !QJsonDocument::fromJson(text).isNull();
        if (!qtReads) {
            EXPECT_EQ(error, notJson) << round << ": " << text.left(200).toStdString();
        }
        if (ours) {
            EXPECT_TRUE(qtReads) << round << ": " << text.left(200).toStdString();
        }
    }
    EXPECT_GT(read, 0); // some damage leaves a summary (a digit for a digit)
}
