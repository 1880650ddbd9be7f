// SPDX-License-Identifier: MIT
// The shared nsys schema (formats/nsys/schema/nsysschema.h) against both of its users: the
// tables and columns the writer creates, read back with PRAGMA table_info; the reader's
// required and optional columns, checked by loading files that lack one; and the real exports.
#include "formats/nsys/schema/nsysschema.h"
#include "formats/nsys/writer/nsyswriter.h"
#include "formats/open.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <array>
#include <set>
#include <span>
#include <string>
#include <vector>

using namespace strobe;
namespace schema = strobe::nsys::schema;
using strobe::test::hasColumn;
using strobe::test::hasTable;
using strobe::test::query;

namespace {

QString latin1(std::string_view s) {
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}

unsigned versionBit(nsys::SchemaFlavor f) {
    return f == nsys::SchemaFlavor::V2_9    ? schema::kV2_9
           : f == nsys::SchemaFlavor::V3_13 ? schema::kV3_13
                                            : schema::kV3_25;
}

// A table's name in the export version `bit` (2.x spelled the metadata table differently).
template <typename T> std::string tableName(unsigned bit) {
    if constexpr (requires { T::tableV2_9; }) {
        if (bit == schema::kV2_9)
            return std::string(T::tableV2_9);
    }
    return std::string(T::table);
}

// One row of every kind plus a session start and a command line, so that the writer creates
// every table it knows.
void writeEveryTable(const std::string& path, nsys::SchemaFlavor flavor) {
    std::string error;
    auto w = nsys::Writer::create(path, flavor, &error);
    ASSERT_TRUE(w) << error;
    nsys::Metadata m;
    m.sessionStartUtcNs = 1767225600000000000;
    m.command = {"./app", "--flag"};
    w->setMetadata(m);
    w->addProcess({1, "app"});
    w->addThread({1, 1, "app"});
    nsys::GpuRow g;
    g.name = "GPU";
    w->addGpu(g);
    w->addStream({1, 1, 7, 0, 3});
    nsys::KernelRow k;
    k.pid = 1;
    k.contextId = 1;
    k.streamId = 7;
    k.start = 10;
    k.end = 20;
    k.shortName = "k";
    w->addKernel(k);
    nsys::MemcpyRow c;
    c.pid = 1;
    c.contextId = 1;
    c.streamId = 7;
    w->addMemcpy(c);
    nsys::MemsetRow s;
    s.pid = 1;
    s.contextId = 1;
    s.streamId = 7;
    w->addMemset(s);
    w->addApiCall({0, 5, 1, 1, 1, "cudaLaunchKernel_v7000"});
    nsys::SyncRow y;
    y.pid = 1;
    y.contextId = 1;
    w->addSync(y);
    nsys::NvtxRow n;
    n.pid = n.tid = 1;
    n.end = 5;
    n.text = "range";
    w->addNvtx(n);
    w->addOsrt({0, 1, 1, 1, "read"});
    ASSERT_TRUE(w->commit(&error)) << error;
}

// "name TYPE[ NOT NULL][ PRIMARY KEY]" per column, in order, as SQLite reports them.
std::vector<std::string> declaredColumns(const std::string& path, const std::string& table) {
    std::vector<std::string> out;
    for (const auto& row :
         query(path, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('" + table +
                         "') ORDER BY cid")) {
        std::string decl = row[0] + ' ' + row[1];
        if (row[2] == "1")
            decl += " NOT NULL";
        if (row[3] != "0")
            decl += " PRIMARY KEY";
        out.push_back(decl);
    }
    return out;
}

// The same from the schema, for the columns export version `bit` carries.
template <typename T> std::vector<std::string> schemaColumns(unsigned bit) {
    std::vector<std::string> out;
    for (const schema::Column& c : T::columns)
        if (c.versions & bit)
            out.push_back(std::string(c.name) + ' ' + std::string(c.type));
    return out;
}

const char* kFlavorNames[] = {"V2_9", "V3_13", "V3_25"};

class SchemaFlavor : public ::testing::TestWithParam<nsys::SchemaFlavor> {
protected:
    void SetUp() override {
        ASSERT_TRUE(dir.isValid());
        path = dir.filePath(QStringLiteral("all.sqlite")).toStdString();
        writeEveryTable(path, GetParam());
        bit = versionBit(GetParam());
    }
    QTemporaryDir dir;
    std::string path;
    unsigned bit = 0;
};

INSTANTIATE_TEST_SUITE_P(AllFlavors, SchemaFlavor,
                         ::testing::Values(nsys::SchemaFlavor::V2_9, nsys::SchemaFlavor::V3_13,
                                           nsys::SchemaFlavor::V3_25),
                         [](const auto& info) { return kFlavorNames[int(info.param)]; });

// A file with a column of one table renamed away, to see what the reader makes of it.
class ReaderContract : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(dir.isValid());
        pristine = dir.filePath(QStringLiteral("pristine.sqlite")).toStdString();
        writeEveryTable(pristine, nsys::SchemaFlavor::V3_25);
    }
    // A copy of the pristine file in which `table`.`column` is called something else.
    QString without(const std::string& table, std::string_view column) {
        const QString copy = dir.filePath(QStringLiteral("copy-%1.sqlite").arg(++m_copies));
        EXPECT_TRUE(QFile::copy(QString::fromStdString(pristine), copy));
        test::exec(copy.toStdString(), "ALTER TABLE " + table + " RENAME COLUMN \"" +
                                           std::string(column) + "\" TO renamedAway");
        return copy;
    }
    QTemporaryDir dir;
    std::string pristine;

private:
    int m_copies = 0;
};

} // namespace

// --- the writer creates what the schema lists -----------------------------------------------

TEST_P(SchemaFlavor, WriterCreatesExactlyTheSchemaTablesOfThisVersion) {
    std::set<std::string> expected;
    schema::forEachTable([&](auto t) {
        using T = decltype(t);
        if (T::versions & bit)
            expected.insert(tableName<T>(bit));
    });
    std::set<std::string> written;
    for (const auto& row : query(path, "SELECT name FROM sqlite_master WHERE type = 'table'"))
        written.insert(row[0]);
    EXPECT_EQ(written, expected);
    // Spot checks that do not come from the schema: the per-version names.
    const bool v29 = GetParam() == nsys::SchemaFlavor::V2_9;
    EXPECT_EQ(hasTable(path, "EXPORT_META_DATA"), v29);
    EXPECT_EQ(hasTable(path, "META_DATA_EXPORT"), !v29);
    EXPECT_EQ(hasTable(path, "TARGET_INFO_CUDA_NULL_STREAM"), v29);
    EXPECT_EQ(hasTable(path, "TARGET_INFO_CUDA_CONTEXT_INFO"), !v29);
}

TEST_P(SchemaFlavor, EveryWrittenTableHasExactlyTheSchemaColumnsTypesAndOrder) {
    int tables = 0;
    schema::forEachTable([&](auto t) {
        using T = decltype(t);
        if (!(T::versions & bit))
            return;
        const std::string name = tableName<T>(bit);
        EXPECT_EQ(declaredColumns(path, name), schemaColumns<T>(bit)) << name;
        ++tables;
    });
    EXPECT_EQ(tables, GetParam() == nsys::SchemaFlavor::V2_9 ? 15 : 16);
    // Version-dependent columns, spelled here rather than taken from the schema.
    const bool v3 = GetParam() != nsys::SchemaFlavor::V2_9;
    const bool v325 = GetParam() == nsys::SchemaFlavor::V3_25;
    EXPECT_EQ(hasColumn(path, "CUPTI_ACTIVITY_KIND_KERNEL", "greenContextId"), v3);
    EXPECT_EQ(hasColumn(path, "CUPTI_ACTIVITY_KIND_KERNEL", "tensorSizeMinusOneElements"), v325);
    EXPECT_EQ(hasColumn(path, "NVTX_EVENTS", "binaryData"), v325);
    EXPECT_EQ(hasColumn(path, "OSRT_API", "argumentsId"), v325);
}

TEST_P(SchemaFlavor, EveryColumnTheReaderReadsIsWritten) {
    int checked = 0;
    schema::forEachTable([&](auto t) {
        using T = decltype(t);
        if (!(T::versions & bit))
            return;
        const std::string name = tableName<T>(bit);
        for (const auto c : T::readRequired) {
            EXPECT_TRUE(hasColumn(path, name, std::string(T::col(c)))) << name << '.' << T::col(c);
            ++checked;
        }
        for (const auto c : T::readOptional) {
            EXPECT_TRUE(hasColumn(path, name, std::string(T::col(c)))) << name << '.' << T::col(c);
            ++checked;
        }
    });
    EXPECT_GT(checked, 80);
    // And what the writer writes, the reader reads back.
    const LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
}

// --- the reader's contract ------------------------------------------------------------------

// Each column the schema calls required is one the reader cannot do without: the file is
// rejected with one sentence naming the table and the column.
TEST_F(ReaderContract, AFileLackingARequiredColumnIsRejectedNamingIt) {
    int checked = 0;
    auto check = [&](auto t) {
        using T = decltype(t);
        for (const auto c : T::readRequired) {
            const QString file = without(std::string(T::table), T::col(c));
            const LoadResult r = loadTrace(file);
            EXPECT_FALSE(r.ok()) << T::table << '.' << T::col(c);
            const QString expected = u'\'' + QFileInfo(file).fileName() +
                                     QStringLiteral("': table ") + latin1(T::table) +
                                     QStringLiteral(" lacks the required column '") +
                                     latin1(T::col(c)) + QStringLiteral("'.");
            EXPECT_EQ(r.error, expected);
            ++checked;
        }
    };
    // The tables the reader selects from by name (the metadata tables are read as name/value
    // pairs, below).
    check(schema::Kernel{});
    check(schema::Memcpy{});
    check(schema::Memset{});
    check(schema::Sync{});
    check(schema::Runtime{});
    check(schema::Nvtx{});
    check(schema::Osrt{});
    check(schema::StringIds{});
    // Tables that events can be placed without (names, streams, GPUs) are never fatal: the
    // table is skipped with a counted warning that names it and the missing column (issue 16).
    auto skipped = [&](auto t) {
        using T = decltype(t);
        for (const auto c : T::readRequired) {
            const LoadResult r = loadTrace(without(std::string(T::table), T::col(c)));
            ASSERT_TRUE(r.ok()) << T::table << '.' << T::col(c) << ": " << r.error.toStdString();
            const QString kind = QStringLiteral("skipped-table:") + latin1(T::table);
            const auto& w = r.trace->warnings();
            const auto it = std::find_if(w.begin(), w.end(),
                                         [&](const TraceWarning& x) { return x.kind == kind; });
            ASSERT_NE(it, w.end()) << T::table << '.' << T::col(c);
            EXPECT_EQ(it->message, QStringLiteral("Table ") + latin1(T::table) +
                                       QStringLiteral(" lacks the columns ") + latin1(T::col(c)) +
                                       QStringLiteral("; it was skipped (1 table)."));
            ++checked;
        }
    };
    skipped(schema::ThreadNames{});
    skipped(schema::Stream{});
    skipped(schema::Gpu{});
    // Issue 14: GPU work needs only its times, device and stream (and a name, below); CUDA API
    // calls their times, thread and name.
    EXPECT_EQ(checked, 4 + 4 + 4 + 2 + 4 + 2 + 4 + 2 + 2 + 3 + 1);
}

// Each column the schema calls optional is one the reader can do without.
TEST_F(ReaderContract, AFileLackingAnOptionalColumnStillLoads) {
    int checked = 0;
    schema::forEachTable([&](auto t) {
        using T = decltype(t);
        for (const auto c : T::readOptional) {
            const LoadResult r = loadTrace(without(std::string(T::table), T::col(c)));
            ASSERT_TRUE(r.ok()) << T::table << '.' << T::col(c) << ": " << r.error.toStdString();
            // An event table with rows names what it lacks in one counted warning.
            const QString kind = QStringLiteral("missing-columns:") + latin1(T::table);
            const auto& w = r.trace->warnings();
            const auto it = std::find_if(w.begin(), w.end(),
                                         [&](const TraceWarning& x) { return x.kind == kind; });
            if (T::table == schema::Kernel::table || T::table == schema::Memcpy::table ||
                T::table == schema::Runtime::table) {
                ASSERT_NE(it, w.end()) << T::table << '.' << T::col(c);
            }
            if (it != w.end()) {
                EXPECT_EQ(it->message,
                          QStringLiteral("Table ") + latin1(T::table) +
                              QStringLiteral(" lacks the column ") + latin1(T::col(c)) +
                              QStringLiteral("; %1 events show it as unknown.").arg(it->count));
            }
            ++checked;
        }
    });
    EXPECT_EQ(checked, 22 + 10 + 6 + 6 + 3 + 8 + 3 + 3 + 1 + 2 + 18);
}

// The metadata tables are (name, value) rows: without `name` the export table is skipped with
// a warning (the versions are then unknown), the capture table only loses the command line.
TEST_F(ReaderContract, MetadataTablesNeedNameAndValue) {
    const QString noExportName =
        without("META_DATA_EXPORT", schema::ExportMeta::col(schema::ExportMeta::name));
    const LoadResult skipped = loadTrace(noExportName);
    ASSERT_TRUE(skipped.ok()) << skipped.error.toStdString();
    EXPECT_FALSE(skipped.trace->metadata().schemaVersion.has_value());
    const auto& w = skipped.trace->warnings();
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const TraceWarning& x) {
        return x.message == QStringLiteral("Table META_DATA_EXPORT lacks the columns name; it was "
                                           "skipped (1 table).");
    }));

    const LoadResult full = loadTrace(QString::fromStdString(pristine));
    ASSERT_TRUE(full.ok());
    EXPECT_EQ(full.trace->metadata().commandLine, QStringLiteral("./app --flag"));
    const LoadResult noCommand = loadTrace(
        without("META_DATA_CAPTURE", schema::CaptureMeta::col(schema::CaptureMeta::value)));
    ASSERT_TRUE(noCommand.ok());
    EXPECT_EQ(noCommand.trace->metadata().commandLine, QString());
}

// --- the schema against real exports --------------------------------------------------------

// Every column the reader requires exists in every real export that has the table (under any
// of its names), from nsys 2022.2 to 2026.2.
TEST(NsysSchema, RealExportsHaveEveryRequiredColumn) {
    const std::vector<std::string> files = test::nsysFixtures();
    if (files.empty())
        GTEST_SKIP() << "no real fixtures";
    int checked = 0;
    for (const std::string& file : files) {
        const std::string path = test::fixturePath(file);
        schema::forEachTable([&](auto t) {
            using T = decltype(t);
            std::vector<std::string> names{std::string(T::table)};
            if constexpr (requires { T::tableV2_9; })
                names.emplace_back(T::tableV2_9);
            for (const std::string& name : names) {
                if (!hasTable(path, name))
                    continue;
                for (const auto c : T::readRequired) {
                    EXPECT_TRUE(hasColumn(path, name, std::string(T::col(c))))
                        << file << ": " << name << '.' << T::col(c);
                    ++checked;
                }
            }
        });
    }
    EXPECT_GT(checked, int(files.size()) * 20);
}

// --- the schema's own consistency check can fail ---------------------------------------------

namespace {

// Two columns a and b; the knobs break one rule each.
template <int Order, const char* SecondName, unsigned SecondVersions, int Required>
struct TwoColumns {
    static constexpr std::string_view table = "T";
    static constexpr unsigned versions = schema::kAllVersions;
    enum Col { a, b, count };
    static constexpr schema::Column columns[] = {
        {Order == 0 ? a : b, "a", "INTEGER"},
        {Order == 0 ? b : a, SecondName, "INTEGER", SecondVersions},
    };
    static constexpr std::array<Col, 2> kBoth{a, b};
    static constexpr std::span<const Col> readRequired{kBoth.data(), std::size_t(Required)};
    static constexpr std::span<const Col> readOptional{};
};
constexpr char kB[] = "b", kA[] = "a", kEmpty[] = "";

} // namespace

TEST(NsysSchema, ConsistencyCheckRejectsBrokenDescriptions) {
    EXPECT_TRUE((schema::wellFormed<TwoColumns<0, kB, schema::kAllVersions, 2>>()));
    EXPECT_TRUE((schema::wellFormed<TwoColumns<0, kB, schema::kV3_25, 1>>()));
    EXPECT_FALSE((schema::wellFormed<TwoColumns<1, kB, schema::kAllVersions, 1>>()))
        << "ids out of order";
    EXPECT_FALSE((schema::wellFormed<TwoColumns<0, kA, schema::kAllVersions, 1>>()))
        << "a name twice";
    EXPECT_FALSE((schema::wellFormed<TwoColumns<0, kEmpty, schema::kAllVersions, 1>>()))
        << "an empty name";
    EXPECT_FALSE((schema::wellFormed<TwoColumns<0, kB, schema::kV3_25, 2>>()))
        << "a required column that older versions lack";
    EXPECT_TRUE(schema::allWellFormed());
}
