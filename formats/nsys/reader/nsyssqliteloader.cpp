// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/nsysloaderimpl.h"

namespace strobe {

using namespace nsysload;

bool looksLikeNsysExport(const SqliteDb& db) {
    if (!db.hasTable(QStringLiteral("StringIds")))
        return false;
    for (const QString& t : {QStringLiteral("META_DATA_EXPORT"), QStringLiteral("EXPORT_META_DATA"),
                             kKernelTable, kRuntimeTable, kNvtxTable, kOsrtTable, kMemcpyTable}) {
        if (db.hasTable(t))
            return true;
    }
    return false;
}

void NsysSqliteLoader::Impl::readMetadata() {
    TraceMetadata& meta = builder.metadata();
    meta.format = QStringLiteral("nsys-sqlite");
    meta.productName = QStringLiteral("Nsight Systems");
    for (const QString& table :
         {QStringLiteral("META_DATA_EXPORT"), QStringLiteral("EXPORT_META_DATA")}) {
        if (!db.hasTable(table))
            continue;
        const QString sql =
            optionalTableSql(table, {QStringLiteral("name"), QStringLiteral("value")}, {});
        if (sql.isEmpty())
            break;
        SqliteStatement st(db, sql);
        while (st.step()) {
            const auto name = st.text(0);
            const QString value = QString::fromUtf8(st.text(1));
            if (name == "EXPORT_PRODUCT_VERSION")
                meta.nsysVersion = value;
            else if (name == "EXPORT_SCHEMA_VERSION")
                meta.schemaVersion = value;
            else if (name == "EXPORT_PRODUCT_NAME" && !value.isEmpty())
                meta.productName = value;
        }
        optionalTableOk(st, table);
        break;
    }
    if (const QString capture = QStringLiteral("META_DATA_CAPTURE"); db.hasTable(capture)) {
        const QString sql =
            optionalTableSql(capture, {QStringLiteral("name"), QStringLiteral("value")}, {});
        SqliteStatement st(db, sql.isEmpty() ? QStringLiteral("SELECT 1 WHERE 0") : sql);
        QString command;
        QMap<int, QString> args;
        while (st.step()) {
            const QString name = QString::fromUtf8(st.text(0));
            if (name == QLatin1String("PROCESS_0:COMMAND"))
                command = QString::fromUtf8(st.text(1));
            else if (name.startsWith(QLatin1String("PROCESS_0:ARGUMENT_")))
                args.insert(name.mid(19).toInt(), QString::fromUtf8(st.text(1)));
        }
        QStringList parts{command};
        parts << args.values();
        if (!sql.isEmpty() && optionalTableOk(st, capture))
            meta.commandLine = parts.join(u' ').trimmed();
    }
    if (db.hasTable(QStringLiteral("TARGET_INFO_SESSION_START_TIME"))) {
        SqliteStatement st(db, selectSql(QStringLiteral("TARGET_INFO_SESSION_START_TIME"), {},
                                         {QStringLiteral("utcEpochNs")}));
        if (st.step() && st.column("utcEpochNs") >= 0)
            meta.sessionStartUtcNs = st.optInt64(0);
        optionalTableOk(st, QStringLiteral("TARGET_INFO_SESSION_START_TIME"));
    }
    if (meta.schemaVersion) {
        const QVersionNumber v = QVersionNumber::fromString(*meta.schemaVersion);
        if (v > kNewestKnownSchema)
            builder.warn(QStringLiteral("newer-schema"), 1,
                         QStringLiteral("The export's schema version ") % *meta.schemaVersion %
                             QStringLiteral(" is newer than any Strobe knows (") %
                             kNewestKnownSchema.toString() %
                             QStringLiteral("); some data may be missing (%1 file)."));
    }
}

void NsysSqliteLoader::Impl::readStrings() {
    const QString table = QStringLiteral("StringIds");
    SqliteStatement st(db, selectSql(table, {QStringLiteral("id"), QStringLiteral("value")}, {}));
    std::vector<std::pair<std::int64_t, StringId>> pairs;
    std::int64_t maxId = -1;
    while (st.step()) {
        const std::int64_t id = st.int64(0);
        pairs.emplace_back(id, builder.intern(st.text(1)));
        maxId = std::max(maxId, id);
        rowDone();
    }
    checkStatement(st, table);
    // Dense ids (the normal case) index a vector; anything sparse or negative goes to a hash.
    const bool dense = maxId >= 0 && std::uint64_t(maxId) < 4 * pairs.size() + 1024;
    if (dense)
        stringMap.assign(std::size_t(maxId) + 1, kNoString);
    for (const auto& [id, sid] : pairs) {
        if (dense && id >= 0)
            stringMap[std::size_t(id)] = sid;
        else
            sparseStrings.insert(id, sid);
    }
    // The empty string is our id 0 and nsys may store it too: keep it findable.
    for (const auto& [id, sid] : pairs) {
        if (sid == kNoString)
            sparseStrings.insert(id, sid);
    }
}

void NsysSqliteLoader::Impl::readProcessesAndThreads() {
    if (db.hasTable(QStringLiteral("PROCESSES"))) {
        SqliteStatement st(db, selectSql(QStringLiteral("PROCESSES"), {},
                                         {QStringLiteral("globalPid"), QStringLiteral("pid"),
                                          QStringLiteral("name")}));
        const int gpid = st.column("globalPid"), pid = st.column("pid"), name = st.column("name");
        while (st.step()) {
            const std::uint32_t p =
                !st.isNull(gpid) ? pidOf(st.int64(gpid)) : std::uint32_t(st.int64(pid));
            builder.setProcessName(p, builder.intern(st.text(name)));
        }
        optionalTableOk(st, QStringLiteral("PROCESSES"));
    }
    const QString threadNames = QStringLiteral("ThreadNames");
    if (db.hasTable(threadNames)) {
        const QString sql = optionalTableSql(
            threadNames, {QStringLiteral("nameId"), QStringLiteral("globalTid")}, {});
        if (sql.isEmpty())
            return;
        SqliteStatement st(db, sql);
        while (st.step()) {
            const std::int64_t g = st.int64(1);
            builder.setThreadName(pidOf(g), tidOf(g), str(st.optInt64(0)));
        }
        optionalTableOk(st, threadNames);
    }
}

void NsysSqliteLoader::Impl::readGpus() {
    QString table = QStringLiteral("TARGET_INFO_GPU");
    QString idColumn = QStringLiteral("id");
    if (!db.hasTable(table)) {
        table = QStringLiteral("TARGET_INFO_CUDA_GPU"); // nsys before 2021.3
        idColumn = QStringLiteral("deviceId");
        if (!db.hasTable(table))
            return;
    }
    static const char* const kCols[] = {"name",
                                        "smCount",
                                        "computeMajor",
                                        "computeMinor",
                                        "maxThreadsPerBlock",
                                        "maxRegistersPerBlock",
                                        "maxRegistersPerSm",
                                        "maxShmemPerBlock",
                                        "maxShmemPerBlockOptin",
                                        "maxShmemPerSm",
                                        "threadsPerWarp",
                                        "maxWarpsPerSm",
                                        "maxBlocksPerSm",
                                        "totalMemory",
                                        "memoryBandwidth",
                                        "clockRate",
                                        "busLocation"};
    QStringList optional;
    for (const char* c : kCols)
        optional << QString::fromLatin1(c);
    const QString sql = optionalTableSql(table, {idColumn}, optional);
    if (sql.isEmpty())
        return;
    SqliteStatement st(db, sql);
    auto u = [&](const char* c) {
        return std::uint32_t(std::max<std::int64_t>(0, st.int64(st.column(c))));
    };
    auto u64 = [&](const char* c) {
        return std::uint64_t(std::max<std::int64_t>(0, st.int64(st.column(c))));
    };
    while (st.step()) {
        GpuInfo g;
        g.id = std::uint32_t(st.int64(0));
        g.name = builder.intern(st.text(st.column("name")));
        g.smCount = u("smCount");
        g.computeMajor = u("computeMajor");
        g.computeMinor = u("computeMinor");
        g.maxThreadsPerBlock = u("maxThreadsPerBlock");
        g.maxRegistersPerBlock = u("maxRegistersPerBlock");
        g.maxRegistersPerSm = u("maxRegistersPerSm");
        g.maxShmemPerBlock = u("maxShmemPerBlock");
        g.maxShmemPerBlockOptin = u("maxShmemPerBlockOptin");
        g.maxShmemPerSm = u("maxShmemPerSm");
        g.threadsPerWarp = u("threadsPerWarp");
        g.maxWarpsPerSm = u("maxWarpsPerSm");
        g.maxBlocksPerSm = u("maxBlocksPerSm");
        g.totalMemory = u64("totalMemory");
        g.memoryBandwidth = u64("memoryBandwidth");
        g.clockRate = u64("clockRate");
        g.busLocation = builder.intern(st.text(st.column("busLocation")));
        builder.addGpu(g);
    }
    optionalTableOk(st, table);
}

void NsysSqliteLoader::Impl::readStreams() {
    const QString table = QStringLiteral("TARGET_INFO_CUDA_STREAM");
    if (!db.hasTable(table))
        return;
    const QString sql = optionalTableSql(
        table,
        {QStringLiteral("streamId"), QStringLiteral("processId"), QStringLiteral("contextId")},
        {QStringLiteral("priority"), QStringLiteral("flag")});
    if (sql.isEmpty())
        return;
    SqliteStatement st(db, sql);
    const int prio = st.column("priority"), flag = st.column("flag");
    while (st.step()) {
        std::optional<std::int32_t> priority;
        if (auto p = st.optInt64(prio))
            priority = std::int32_t(std::uint32_t(*p)); // stored as unsigned: 4294967291 is -5
        builder.setStreamInfo(std::uint32_t(st.int64(1)), std::uint32_t(st.int64(2)),
                              std::uint32_t(st.int64(0)), priority, std::uint8_t(st.int64(flag)));
    }
    optionalTableOk(st, table);
}

namespace {

// Every table the loader reads: the authorizer refuses reads of anything else.
QStringList readableTables() {
    return {QStringLiteral("StringIds"),
            QStringLiteral("META_DATA_EXPORT"),
            QStringLiteral("EXPORT_META_DATA"),
            QStringLiteral("META_DATA_CAPTURE"),
            QStringLiteral("TARGET_INFO_SESSION_START_TIME"),
            QStringLiteral("PROCESSES"),
            QStringLiteral("ThreadNames"),
            QStringLiteral("TARGET_INFO_GPU"),
            QStringLiteral("TARGET_INFO_CUDA_GPU"),
            QStringLiteral("TARGET_INFO_CUDA_STREAM"),
            kKernelTable,
            kMemcpyTable,
            kMemsetTable,
            kRuntimeTable,
            kSyncTable,
            kNvtxTable,
            kOsrtTable};
}

// The budget for all SQL on a file: 30 s plus 1 s per MB, ten times or more a normal load even on
// a busy 2-core machine (a 1 GB export of 17M events loads in 5 to 45 s there).
std::chrono::milliseconds timeBudget(const QString& path, const LoadOptions& options) {
    if (options.timeBudget.count() > 0)
        return options.timeBudget;
    return std::chrono::milliseconds(30'000 + QFileInfo(path).size() / 1'000);
}

} // namespace

NsysSqliteLoader::NsysSqliteLoader(const QString& path, const LoadOptions& options)
    : d(std::make_unique<Impl>(path, options)) {}

NsysSqliteLoader::~NsysSqliteLoader() = default;

LoadResult NsysSqliteLoader::load() {
    LoadResult result;
    try {
        QString error;
        const SqliteGuard guard{d->options.cancel, timeBudget(d->path, d->options),
                                readableTables()};
        auto openFailure = [&] {
            d->checkCancel();
            return LoadFailure{QStringLiteral("Cannot read '") % d->fileName() %
                               QStringLiteral("': ") % error % u'.'};
        };
        if (!d->db.open(d->path, guard, &error))
            throw openFailure();
        if (!looksLikeNsysExport(d->db))
            throw LoadFailure{
                u'\'' % d->fileName() %
                QStringLiteral("' is an SQLite database but not an Nsight Systems export: it has "
                               "no StringIds table or no trace tables (views and virtual tables "
                               "are not read).")};
        d->report(0);
        if (d->options.threads >= 2 && !d->scanConnection.open(d->path, guard, &error))
            throw openFailure();
        QStringList nonTables;
        for (const QString& t : readableTables()) {
            if (d->db.hasNonTable(t))
                nonTables << t;
        }
        if (!nonTables.isEmpty())
            d->builder.warn(QStringLiteral("not-a-table"), std::uint64_t(nonTables.size()),
                            nonTables.join(QStringLiteral(", ")) %
                                QStringLiteral(" (%1) are views or virtual tables, not ordinary "
                                               "tables; Strobe never runs a file's own SQL, so "
                                               "they were not read."));
        if (d->db.hadJournal())
            d->builder.warn(QStringLiteral("journal-present"), 1,
                            QStringLiteral("A -journal or -wal file lies beside the export (%1): "
                                           "a program may be writing it, so what is shown may "
                                           "change or be incomplete."));
        const QString eventTables[] = {QStringLiteral("StringIds"),
                                       kKernelTable,
                                       kMemcpyTable,
                                       kMemsetTable,
                                       kRuntimeTable,
                                       kSyncTable,
                                       kNvtxTable,
                                       kOsrtTable};
        d->rowsTotal = 1;
        for (const QString& t : eventTables)
            d->rowsTotal += d->estimateRows(t);
        d->readMetadata();
        d->readStrings();
        d->readProcessesAndThreads();
        d->readGpus();
        d->readStreams();
        // The GPU side first, so that a preview can show it while the CPU side is read.
        d->readKernels();
        d->readMemcpys();
        d->readMemsets();
        if (d->options.preview && d->rowsTotal >= d->options.previewMinRows) {
            if (auto preview = d->builder.finishGpuPreview(d->options.cancel))
                d->options.preview(std::move(preview));
            d->checkCancel();
        }
        d->readRuntime();
        d->readSyncs();
        d->readNvtx();
        d->readOsrt();
        d->checkCancel();

        TraceBuilder& b = d->builder;
        const bool anyEventTable = std::any_of(std::begin(eventTables) + 1, std::end(eventTables),
                                               [&](const QString& t) { return d->db.hasTable(t); });
        if (!anyEventTable)
            b.warn(QStringLiteral("no-events"), 1,
                   QStringLiteral("The export recorded no CUDA, NVTX or OS runtime events (%1 "
                                  "file); the profiled program may not have used the GPU."));
        b.warn(
            QStringLiteral("inverted-interval"), d->invertedTimes,
            QStringLiteral("%1 events end before they start; their end was set to their start."));
        b.warn(QStringLiteral("negative-time"), d->negativeTimes,
               QStringLiteral("%1 events start before time zero (before the capture window)."));
        b.warn(QStringLiteral("dangling-string"), d->danglingStrings,
               QStringLiteral(
                   "%1 string ids point to no entry of StringIds; those names are shown empty."));
        d->report(920);
        result.trace = b.finish(d->options.cancel);
        if (!result.trace)
            throw Cancelled{};
        d->report(1000);
    } catch (const LoadFailure& f) {
        result.error = f.message;
    } catch (const Cancelled&) {
        result.cancelled = true;
        result.error =
            QStringLiteral("Loading '") % d->fileName() % QStringLiteral("' was cancelled.");
    } catch (const std::bad_alloc&) {
        result.error = QStringLiteral("Cannot load '") % d->fileName() %
                       QStringLiteral("': not enough memory.");
    }
    return result;
}

} // namespace strobe
