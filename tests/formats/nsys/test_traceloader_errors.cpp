// SPDX-License-Identifier: MIT
// Bad input gets one clear sentence naming the file; data anomalies become counted warnings.
#include "formats/open.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <random>
#include <sqlite3.h>
#include <sys/fsuid.h>
#include <unistd.h>

using namespace strobe;

namespace {

class LoaderErrors : public ::testing::Test {
protected:
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

    QString write(const QString& name, const QByteArray& bytes) const {
        QFile f(path(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        return path(name);
    }

    // Creates an SQLite database from `sql` statements.
    QString makeDb(const QString& name, const std::string& sql) const {
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(path(name).toUtf8().constData(), &db), SQLITE_OK);
        char* err = nullptr;
        EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK)
            << (err ? err : "");
        sqlite3_free(err);
        sqlite3_close(db);
        return path(name);
    }

    static QString errorOf(const QString& file) {
        LoadResult r = loadTrace(file);
        EXPECT_FALSE(r.ok());
        EXPECT_FALSE(r.cancelled);
        EXPECT_FALSE(r.error.isEmpty());
        EXPECT_FALSE(r.error.contains(u'\n')) << "one sentence, one line";
        return r.error;
    }
};

const std::string kMinimalExport =
    "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE META_DATA_EXPORT(name TEXT NOT NULL, value TEXT);"
    "INSERT INTO META_DATA_EXPORT VALUES('EXPORT_SCHEMA_VERSION','3.13.2');";

} // namespace

TEST_F(LoaderErrors, MissingFile) {
    const QString e = errorOf(path(QStringLiteral("nope.sqlite")));
    EXPECT_EQ(e, QStringLiteral("Cannot open 'nope.sqlite': the file does not exist."));
}

TEST_F(LoaderErrors, Directory) {
    QDir(dir.path()).mkdir(QStringLiteral("traces.sqlite"));
    EXPECT_EQ(errorOf(path(QStringLiteral("traces.sqlite"))),
              QStringLiteral("'traces.sqlite' is a directory, not a trace file."));
}

TEST_F(LoaderErrors, UnreadableFile) {
    const QString f = write(QStringLiteral("secret.sqlite"), QByteArray("SQLite format 3\0", 16));
    QFile::setPermissions(f, QFileDevice::Permissions());
    // Root reads everything; drop the file-system capabilities for this thread meanwhile.
    const bool root = geteuid() == 0;
    if (root)
        setfsuid(65534);
    const QString e = errorOf(f);
    if (root)
        setfsuid(0);
    EXPECT_TRUE(e.startsWith(QStringLiteral("Cannot read 'secret.sqlite': "))) << e.toStdString();
}

TEST_F(LoaderErrors, EmptyFile) {
    EXPECT_EQ(errorOf(write(QStringLiteral("empty.sqlite"), {})),
              QStringLiteral("'empty.sqlite' is empty (0 bytes), not a trace."));
}

TEST_F(LoaderErrors, RandomBytes) {
    std::mt19937 rng(3);
    QByteArray bytes(8192, '\0');
    for (char& c : bytes)
        c = char(rng());
    EXPECT_EQ(errorOf(write(QStringLiteral("noise.bin"), bytes)),
              QStringLiteral("'noise.bin' is not a trace database: it is neither SQLite nor an "
                             "Nsight Systems report."));
}

TEST_F(LoaderErrors, TextFile) {
    EXPECT_EQ(
        errorOf(write(QStringLiteral("notes.txt"), "kernel timings, see below\nsaxpy 12 us\n")),
        QStringLiteral("'notes.txt' is a text file, not a trace database."));
}

TEST_F(LoaderErrors, JsonGoesToTheKinetoReader) {
    // Sniffing hands JSON to the Kineto reader: an empty trace opens, with a warning.
    const LoadResult r = loadTrace(write(QStringLiteral("t.json"), R"({"traceEvents": []})"));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->metadata().format, QStringLiteral("kineto-json"));
    ASSERT_EQ(r.trace->warnings().size(), 1u);
    EXPECT_EQ(r.trace->warnings()[0].kind, QStringLiteral("no-events"));
}

TEST_F(LoaderErrors, TruncatedSqlite) {
    QFile src(QString::fromStdString(strobe::test::fixturePath("nsys2025.5-cuda-graphs.sqlite")));
    ASSERT_TRUE(src.open(QIODevice::ReadOnly));
    const QByteArray whole = src.readAll();
    const QString e = errorOf(write(QStringLiteral("cut.sqlite"), whole.left(whole.size() / 2)));
    EXPECT_EQ(
        e,
        QStringLiteral(
            "'cut.sqlite' is truncated: its SQLite header promises %1 bytes but the file has %2.")
            .arg(whole.size())
            .arg(whole.size() / 2));
}

TEST_F(LoaderErrors, DamagedSqlitePages) {
    QFile src(QString::fromStdString(strobe::test::fixturePath("nsys2025.5-cuda-graphs.sqlite")));
    ASSERT_TRUE(src.open(QIODevice::ReadOnly));
    QByteArray bytes = src.readAll();
    // Same size, so the header check passes; garbage over every page after the first.
    for (qsizetype i = 4096; i < bytes.size(); ++i)
        bytes[i] = char(0xA5 ^ (i * 31));
    const QString e = errorOf(write(QStringLiteral("damaged.sqlite"), bytes));
    EXPECT_TRUE(e.contains(QStringLiteral("damaged.sqlite"))) << e.toStdString();
}

TEST_F(LoaderErrors, SqliteWithoutTraceTables) {
    const QString f =
        makeDb(QStringLiteral("app.db"), "CREATE TABLE users(id INTEGER, name TEXT);");
    EXPECT_EQ(
        errorOf(f),
        QStringLiteral("'app.db' is an SQLite database but not an Nsight Systems export: it has no "
                       "StringIds table or no trace tables (views and virtual tables are not "
                       "read)."));
}

TEST_F(LoaderErrors, NsysReport) {
    QByteArray bytes("NVIDIA Tegra Profiler Report 1.");
    bytes.append(QByteArray(64, '\x03'));
    EXPECT_EQ(errorOf(write(QStringLiteral("run.nsys-rep"), bytes)),
              QStringLiteral("'run.nsys-rep' is an Nsight Systems report, which only Nsight "
                             "Systems can read; export it "
                             "first with: nsys export --type sqlite run.nsys-rep"));
}

TEST_F(LoaderErrors, MissingRequiredColumn) {
    const QString f = makeDb(
        QStringLiteral("nostart.sqlite"),
        kMinimalExport + "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(end INTEGER, deviceId INTEGER, "
                         "contextId INTEGER, streamId INTEGER, shortName INTEGER);");
    EXPECT_EQ(errorOf(f),
              QStringLiteral(
                  "'nostart.sqlite': table CUPTI_ACTIVITY_KIND_KERNEL lacks the required column "
                  "'start'."));
}

TEST_F(LoaderErrors, ExportWithoutEventsOpensWithAWarning) {
    LoadResult r = loadTrace(makeDb(QStringLiteral("build-step.sqlite"), kMinimalExport));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->counts().kernels + r.trace->counts().cudaApiCalls +
                  r.trace->counts().nvtxRanges,
              0u);
    EXPECT_TRUE(r.trace->lanes().empty());
    ASSERT_EQ(r.trace->warnings().size(), 1u);
    EXPECT_EQ(r.trace->warnings()[0].kind, QStringLiteral("no-events"));
}

// A build step that exported nothing: every event table exists, none has a row. It must read
// exactly like an export without those tables.
TEST_F(LoaderErrors, ExportWithEmptyEventTablesWarnsLikeOneWithout) {
    const std::string emptyTables =
        kMinimalExport +
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, "
        "deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid "
        "INTEGER, shortName INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL, "
        "deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid "
        "INTEGER, bytes INTEGER, copyKind INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL, "
        "eventClass INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER);"
        "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER, "
        "globalTid INTEGER, text TEXT);"
        "CREATE TABLE OSRT_API(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER, "
        "globalTid INTEGER, nameId INTEGER);";
    LoadResult empty = loadTrace(makeDb(QStringLiteral("empty-tables.sqlite"), emptyTables));
    LoadResult missing = loadTrace(makeDb(QStringLiteral("no-tables.sqlite"), kMinimalExport));
    ASSERT_TRUE(empty.ok()) << empty.error.toStdString();
    ASSERT_TRUE(missing.ok()) << missing.error.toStdString();
    EXPECT_TRUE(empty.trace->lanes().empty());
    ASSERT_EQ(empty.trace->warnings().size(), 1u);
    EXPECT_EQ(empty.trace->warnings()[0].kind, QStringLiteral("no-events"));
    EXPECT_EQ(empty.trace->warnings()[0].message, missing.trace->warnings()[0].message);
    EXPECT_EQ(empty.trace->timeRange(), missing.trace->timeRange());
}

TEST_F(LoaderErrors, DataAnomaliesAreCountedWarnings) {
    const std::string sql =
        kMinimalExport +
        "UPDATE META_DATA_EXPORT SET value='4.0.0';"
        "INSERT INTO StringIds VALUES(1,'k'),(2,'cudaLaunchKernel_v7000'),(3,'range');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, "
        "deviceId INTEGER, "
        "contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, shortName "
        "INTEGER, "
        "thirdPartyColumn TEXT);"
        // correlation 5 has an API call, 6 has none; one kernel ends before it starts; one starts
        // before 0.
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL "
        "VALUES(100,200,0,1,7,5,16777216*10,1,'x'),(300,250,0,1,7,6,"
        "16777216*10,1,'x'),(-50,20,0,1,7,NULL,16777216*10,99,'x');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, eventClass INTEGER, "
        "globalTid INTEGER,"
        " correlationId INTEGER, nameId INTEGER, returnValue INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(90,95,0,16777216*10+11,5,2,0);"
        "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
        "text TEXT, "
        "globalTid INTEGER, textId INTEGER, domainId INTEGER);"
        "INSERT INTO NVTX_EVENTS "
        "VALUES(10,NULL,59,NULL,16777216*10+11,3,0),(20,30,59,'inner',16777216*10+11,NULL,0);";
    LoadResult r = loadTrace(makeDb(QStringLiteral("odd.sqlite"), sql));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    std::map<QString, std::uint64_t> w;
    for (const auto& warning : r.trace->warnings())
        w[warning.kind] = warning.count;
    EXPECT_EQ(w[QStringLiteral("inverted-interval")], 1u);
    EXPECT_EQ(w[QStringLiteral("negative-time")], 1u);
    EXPECT_EQ(w[QStringLiteral("dangling-string")], 1u);      // shortName 99
    EXPECT_EQ(w[QStringLiteral("dangling-correlation")], 1u); // correlation 6
    EXPECT_EQ(w[QStringLiteral("open-nvtx-range")], 1u);
    EXPECT_EQ(w[QStringLiteral("newer-schema")], 1u);
    EXPECT_EQ(r.trace->counts().kernels, 3u);
    // The open range reaches the end of the trace and contains the inner one.
    const Trace& t = *r.trace;
    int nvtxLanes = 0;
    for (const Lane& l : t.lanes()) {
        if (l.kind() != LaneKind::Nvtx)
            continue;
        ++nvtxLanes;
        ASSERT_EQ(l.size(), 2u);
        EXPECT_EQ(l.end(0), t.timeRange().end);
        EXPECT_FALSE(t.nvtx()[l.payload(0)].hasEnd);
        EXPECT_EQ(t.nvtx()[l.payload(1)].depth, 1);
    }
    EXPECT_EQ(nvtxLanes, 1) << "the checks above ran on the one NVTX lane";
}

TEST_F(LoaderErrors, CancelStopsLoading) {
    std::atomic<bool> cancel{true};
    LoadOptions o;
    o.cancel = &cancel;
    LoadResult r = loadTrace(
        QString::fromStdString(strobe::test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite")), o);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.cancelled);
}

TEST_F(LoaderErrors, ProgressIsMonotonicAndEndsAtOneThousand) {
    std::vector<int> seen;
    LoadOptions o;
    o.progress = [&](int p) { seen.push_back(p); };
    LoadResult r = loadTrace(
        QString::fromStdString(strobe::test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite")), o);
    ASSERT_TRUE(r.ok());
    ASSERT_GE(seen.size(), 3u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.front(), 0);
    EXPECT_EQ(seen.back(), 1000);
}

TEST_F(LoaderErrors, SurvivesRandomCorruption) {
    // Bytes flipped anywhere past the header: every load either succeeds or says what is wrong.
    QFile src(QString::fromStdString(strobe::test::fixturePath("nsys2025.5-cuda-graphs.sqlite")));
    ASSERT_TRUE(src.open(QIODevice::ReadOnly));
    const QByteArray original = src.readAll();
    std::mt19937 rng(11);
    int failures = 0;
    for (int round = 0; round < 40; ++round) {
        QByteArray bytes = original;
        std::uniform_int_distribution<qsizetype> at(100, bytes.size() - 1);
        for (int k = 0; k < 24; ++k)
            bytes[at(rng)] = char(rng());
        const QString f = write(QStringLiteral("corrupt-%1.sqlite").arg(round), bytes);
        LoadResult r = loadTrace(f);
        if (!r.ok()) {
            ++failures;
            EXPECT_TRUE(r.error.contains(QStringLiteral("corrupt-"))) << r.error.toStdString();
        }
    }
    EXPECT_GT(failures, 0) << "some of the damage must be noticed";
}
