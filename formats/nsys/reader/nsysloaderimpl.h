// SPDX-License-Identifier: MIT
#pragma once

// The nsys SQLite loader's internals, shared by the files that read its tables:
// nsyssqliteloader.cpp (metadata, strings, processes, GPUs, streams; orchestration),
// nsysgputables.cpp (kernels, memcpys, memsets, syncs) and nsyscputables.cpp (CUDA API calls,
// NVTX, OS runtime calls). Not part of the model's API.

#include "formats/nsys/reader/nsyssqliteloader.h"
#include "formats/nsys/reader/sqlitedb.h"
#include "formats/nsys/schema/nsysschema.h"
#include "model/tracebuilder.h"

#include <QFileInfo>
#include <QHash>
#include <QStringBuilder>
#include <QVersionNumber>

namespace strobe {

namespace nsysload {

inline constexpr std::uint32_t pidOf(std::int64_t globalId) {
    return std::uint32_t((globalId >> 24) & 0xFFFFFF);
}
inline constexpr std::uint32_t tidOf(std::int64_t globalId) {
    return std::uint32_t(globalId & 0xFFFFFF);
}

// The newest schema this loader was written against (nsys 2026.4).
inline const QVersionNumber kNewestKnownSchema(3, 28, 1);

namespace schema = nsys::schema;

// A schema name (ASCII) as a QString.
inline QString qs(std::string_view name) {
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

// The names of `cols` of schema table T, in order.
template <typename T> QStringList columnNames(std::initializer_list<typename T::Col> cols) {
    QStringList out;
    out.reserve(qsizetype(cols.size()));
    for (const auto c : cols)
        out << qs(T::col(c));
    return out;
}

inline const QString kKernelTable = qs(schema::Kernel::table);
inline const QString kMemcpyTable = qs(schema::Memcpy::table);
inline const QString kMemsetTable = qs(schema::Memset::table);
inline const QString kRuntimeTable = qs(schema::Runtime::table);
inline const QString kSyncTable = qs(schema::Sync::table);
inline const QString kGpuMemoryTable = qs(schema::GpuMemoryUsage::table);
inline const QString kNvtxTable = qs(schema::Nvtx::table);
inline const QString kOsrtTable = qs(schema::Osrt::table);

// Thrown inside the loader only; load() turns it into LoadResult::error.
struct LoadFailure {
    QString message;
};
struct Cancelled {};

} // namespace nsysload

struct NsysSqliteLoader::Impl {
    QString path;
    LoadOptions options;
    SqliteDb db;
    TraceBuilder builder;
    std::vector<StringId> stringMap; // nsys StringIds.id -> our id
    QHash<std::int64_t, StringId> sparseStrings;
    std::uint64_t danglingStrings = 0;
    std::uint64_t invertedTimes = 0;
    std::uint64_t negativeTimes = 0;
    std::uint64_t rowsDone = 0;
    std::uint64_t rowsTotal = 1;
    int lastPermille = -1;

    Impl(const QString& p, const LoadOptions& o)
        : path(p)
        , options(o)
        , builder(p) {}

    QString fileName() const { return QFileInfo(path).fileName(); }

    void checkCancel() const {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            throw nsysload::Cancelled{};
    }

    void rowDone() {
        if ((++rowsDone & 0x3FFF) == 0) {
            checkCancel();
            report(int(std::min<std::uint64_t>(900, rowsDone * 900 / rowsTotal)));
        }
    }

    void report(int permille) {
        if (options.progress && permille > lastPermille) {
            lastPermille = permille;
            options.progress(permille);
        }
    }

    // Builds "SELECT <existing wanted columns> FROM table"; throws when a required one is missing.
    QString selectSql(const QString& table, const QStringList& required,
                      const QStringList& optional) {
        const QStringList have = db.columns(table);
        QStringList cols;
        for (const QString& c : required) {
            if (!have.contains(c))
                throw nsysload::LoadFailure{u'\'' % fileName() % QStringLiteral("': table ") %
                                            table % QStringLiteral(" lacks the required column '") %
                                            c % QStringLiteral("'.")};
            cols << u'"' % c % u'"';
        }
        for (const QString& c : optional) {
            if (have.contains(c))
                cols << u'"' % c % u'"';
        }
        return QStringLiteral("SELECT ") % cols.join(u',') % QStringLiteral(" FROM ") % table;
    }
    // The same for schema table T with the reader's columns for it (T::readRequired, then
    // T::readOptional); read them by name (st.column), never by position.
    template <typename T> QString selectSql() {
        return selectSql(nsysload::qs(T::table), nsysload::columnNames<T>(T::readRequired),
                         nsysload::columnNames<T>(T::readOptional));
    }

    // The second connection, stepped by SqliteRowStream's worker, when loading with two threads.
    SqliteDb scanConnection;
    bool threaded() const { return options.threads >= 2 && scanConnection.handle(); }
    const SqliteDb& scanDb() const { return threaded() ? scanConnection : db; }

    template <typename Statement> void checkStatement(const Statement& st, const QString& table) {
        if (st.hasError() || !st.isValid())
            throw nsysload::LoadFailure{
                QStringLiteral("Cannot read '") % fileName() % QStringLiteral("': table ") % table %
                QStringLiteral(" is damaged (") % db.lastError() % QStringLiteral(").")};
    }

    StringId str(std::optional<std::int64_t> nsysId) {
        if (!nsysId)
            return kNoString;
        const std::int64_t id = *nsysId;
        if (id >= 0 && std::uint64_t(id) < stringMap.size() &&
            stringMap[std::size_t(id)] != kNoString)
            return stringMap[std::size_t(id)];
        if (auto it = sparseStrings.constFind(id); it != sparseStrings.constEnd())
            return it.value();
        ++danglingStrings;
        return kNoString;
    }

    // Checks one interval: counts anomalies and repairs an end before its start.
    TimeNs checkedEnd(TimeNs start, TimeNs end) {
        if (start < 0)
            ++negativeTimes;
        if (end < start) {
            ++invertedTimes;
            return start;
        }
        return end;
    }

    std::uint64_t estimateRows(const QString& table) {
        if (!db.hasTable(table))
            return 0;
        SqliteStatement st(db, QStringLiteral("SELECT max(rowid) FROM ") % table);
        return st.step() ? std::uint64_t(std::max<std::int64_t>(0, st.int64(0))) : 0;
    }

    void readMetadata();
    void readStrings();
    void readProcessesAndThreads();
    void readGpus();
    void readStreams();
    void readKernels();
    void readMemcpys();
    void readMemsets();
    void readRuntime();
    void readSyncs();
    void readGpuMemory();
    void readNvtx();
    void readOsrt();
};

} // namespace strobe
