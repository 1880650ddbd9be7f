// SPDX-License-Identifier: MIT
#pragma once

// The nsys SQLite loader's internals, shared by the files that read its tables:
// nsyssqliteloader.cpp (metadata, strings, processes, GPUs, streams; orchestration),
// nsysgputables.cpp (kernels, memcpys, memsets, syncs) and nsyscputables.cpp (CUDA API calls,
// NVTX, OS runtime calls). Not part of the model's API.

#include "formats/nsys/reader/gpupassplan.h"
#include "formats/nsys/reader/nsyssqliteloader.h"
#include "formats/nsys/reader/sqliterowstream.h"
#include "formats/nsys/schema/nsysschema.h"
#include "model/loadboundary.h"
#include "model/tracebuilder.h"

#include <QElapsedTimer>
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
    // True when the caller asked for `part` (LoadOptions::parts): its tables are read.
    bool wants(TracePart part) const { return options.parts.testFlag(part); }

    void checkCancel() const { throwIfCancelled(options.cancel); }

    // A name of the file, interned; cut to kMaxNameBytes (model/stringtable.h) when longer.
    std::uint64_t longNames = 0;
    StringId internName(std::string_view s) {
        const std::string_view kept = cutName(s);
        longNames += kept.size() < s.size();
        return builder.intern(kept);
    }

    void rowDone() {
        if ((++rowsDone & 0x3FFF) == 0) {
            checkCancel();
            report(int(std::min<std::uint64_t>(900, rowsDone * 900 / rowsTotal)));
            if (readingGpuSide && previews && !earlyPreviewSent &&
                sinceOpen.elapsed() >= options.earlyPreviewAfter.count()) {
                earlyPreviewSent = true;
                sendPreview(TraceStage::GpuSideBegun);
            }
        }
    }

    // Previews (LoadOptions::preview) of a big trace: the first rows of the GPU tables once
    // options.earlyPreviewAfter has passed since the load began, then the whole GPU side; both
    // over the extent estimated from every event table's first and last rows.
    bool previews = false;
    bool readingGpuSide = false;
    bool earlyPreviewSent = false;
    QElapsedTimer sinceOpen;
    std::optional<TimeRange> extent;
    void probeExtent(const QStringList& tables);
    // The GPU picture of a big trace before the full read: a load of its own of the GPU tables
    // without the kernels' launch details (a third of the kernel table's columns, the ones the
    // timeline draws), sent as the GpuSide preview; its early preview is passed on. False when
    // that load failed: the full read then meets the same problem and says so.
    bool sendQuickGpuPreview();
    // The quick pass of a big trace reads its GPU tables in sampled passes (gpupassplan.h),
    // sending a GpuSideBegun preview after each pass but the last (metadata().gpuSampleStride
    // says how much it holds). Set by sendQuickGpuPreview on the quick pass's loader.
    bool sampledPasses = false;
    // While a sampled pass reads: per GPU table, the rowid ranges it reads; a table absent from
    // it (no usable rowid) is read whole by the first pass and skipped by the others.
    struct PassTable {
        QString rowid;
        std::vector<nsysload::RowidRange> ranges;
    };
    std::optional<QHash<QString, PassTable>> passTables;
    int pass = 0;
    bool finalPass() const { return !passTables || pass + 1 == passCount; }
    int passCount = 1;
    // Reads the GPU side with `reads` (readKernels, ...) in sampled passes; false (nothing read)
    // where the GPU tables hold fewer than options.gpuSampleMinRows rows.
    bool readGpuSideInPasses(const std::vector<std::pair<TracePart, void (Impl::*)()>>& reads);
    // The stream of a GPU table's rows: the whole table, or those of the current pass; null
    // where this pass reads nothing of it.
    std::unique_ptr<SqliteRowStream> gpuTableStream(const QString& sql, const QString& table);
    // Before a GPU table's row is added: a row of a sampled pass is keyed by the first rowid of
    // its block, so that the lanes are finished in the table's order (the result equals a read
    // in one go).
    void keyRow(const SqliteRowStream& st) {
        if (st.hasRanges())
            builder.setRowOrderKey(st.rowRange().first);
    }
    void sendPreview(TraceStage stage, int laneThreads = 1) {
        if (auto preview = builder.finishGpuPreview(options.cancel, stage, extent, laneThreads))
            options.preview(std::move(preview));
        checkCancel();
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
        QString sql = optionalSelectSql(table, required, optional);
        if (sql.isEmpty())
            throw LoadFailure{u'\'' % fileName() % QStringLiteral("': table ") % table %
                              QStringLiteral(" lacks the required column") %
                              (missingColumns(table, required).size() > 1 ? QStringLiteral("s '")
                                                                          : QStringLiteral(" '")) %
                              missingColumns(table, required).join(QStringLiteral("', '")) %
                              QStringLiteral("'.")};
        return sql;
    }
    QStringList missingColumns(const QString& table, const QStringList& wanted) const {
        const QStringList have = db.columns(table);
        QStringList missing;
        for (const QString& c : wanted) {
            if (!have.contains(c))
                missing << c;
        }
        return missing;
    }
    // As selectSql, but empty (and no throw) when a required column is missing.
    QString optionalSelectSql(const QString& table, const QStringList& required,
                              const QStringList& optional) {
        const QStringList have = db.columns(table);
        QStringList cols;
        for (const QString& c : required) {
            if (!have.contains(c))
                return {};
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

    // The columns of T::readOptional that the file's table lacks: read as unknown.
    template <typename T> QStringList absentOptional() const {
        return missingColumns(nsysload::qs(T::table), nsysload::columnNames<T>(T::readOptional));
    }
    // After reading `events` events from `table`: one counted warning naming the columns it
    // lacks (a reduced export), none when it lacks none or had no rows.
    void warnAbsentColumns(const QString& table, const QStringList& absent, std::uint64_t events) {
        if (absent.isEmpty() || events == 0)
            return;
        builder.warn(QStringLiteral("missing-columns:") % table, events,
                     QStringLiteral("Table ") % table %
                         (absent.size() > 1 ? QStringLiteral(" lacks the columns ")
                                            : QStringLiteral(" lacks the column ")) %
                         absent.join(QStringLiteral(", ")) %
                         (absent.size() > 1 ? QStringLiteral("; %1 events show them as unknown.")
                                            : QStringLiteral("; %1 events show it as unknown.")));
    }

    // The connections that SqliteRowStream's workers step, when loading with two threads or
    // more: one with two threads, two (the big tables read in stripes) with three or more.
    SqliteDb scanConnections[2];
    SqliteScanners scanners() const {
        SqliteScanners by{&db, {}};
        for (const SqliteDb& c : scanConnections) {
            if (c.handle())
                by.workers.push_back(&c);
        }
        return by;
    }
    bool timedOut() const {
        return db.timedOut() || scanConnections[0].timedOut() || scanConnections[1].timedOut();
    }

    template <typename Statement> void checkStatement(const Statement& st, const QString& table) {
        if (st.hasError() || !st.isValid())
            throw LoadFailure{statementProblem(st.errorCode(), table)};
    }
    // Our sentence for a failed statement on `table`; throws LoadCancelled when that was the cause.
    QString statementProblem(int rc, const QString& table) const {
        checkCancel();
        if (timedOut())
            return QStringLiteral("Cannot read '") % fileName() %
                   QStringLiteral("': reading it took longer than ") %
                   QString::number(double(db.budget().count()) / 1000.0, 'g', 3) %
                   QStringLiteral(" s, the budget for a file of its size.");
        if (isDamageError(rc))
            return QStringLiteral("Cannot read '") % fileName() % QStringLiteral("': ") %
                   describeDamage(QStringLiteral("table ") % table) % u'.';
        return QStringLiteral("Cannot read '") % fileName() % QStringLiteral("' (table ") % table %
               QStringLiteral("): ") % describeSqliteError(rc) % u'.';
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

    // Optional tables (metadata, names, GPUs, streams) are never fatal: when one lacks columns
    // or cannot be read, a counted warning names it and what it lacks, and loading goes on.
    void skipTable(const QString& table, const QString& why) {
        builder.warn(QStringLiteral("skipped-table:") % table, 1,
                     QStringLiteral("Table ") % table % u' ' % why %
                         QStringLiteral("; it was skipped (%1 table)."));
    }
    // optionalTableSql for a table of the schema description, with its read contract.
    template <typename T> QString optionalTableSql() {
        return optionalTableSql(nsysload::qs(T::table), nsysload::columnNames<T>(T::readRequired),
                                nsysload::columnNames<T>(T::readOptional));
    }
    // optionalSelectSql, with the warning when it comes back empty.
    QString optionalTableSql(const QString& table, const QStringList& required,
                             const QStringList& optional) {
        QString sql = optionalSelectSql(table, required, optional);
        if (sql.isEmpty())
            skipTable(table, QStringLiteral("lacks the columns ") %
                                 missingColumns(table, required).join(QStringLiteral(", ")));
        return sql;
    }
    // After reading an optional table: false, with the warning, when its statement failed.
    template <typename Statement> bool optionalTableOk(const Statement& st, const QString& table) {
        if (!st.hasError() && st.isValid())
            return true;
        const QString problem = statementProblem(st.errorCode(), table); // throws on cancel
        if (db.timedOut())
            throw LoadFailure{problem};
        if (isDamageError(st.errorCode()))
            builder.warn(QStringLiteral("skipped-table:") % table, 1,
                         QStringLiteral("Table ") % table %
                             QStringLiteral(" is damaged (it holds a malformed page) and was "
                                            "skipped (%1 table); export the file again from its "
                                            "report with nsys export --type sqlite."));
        else
            skipTable(table,
                      QStringLiteral("cannot be read: ") % describeSqliteError(st.errorCode()));
        return false;
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
