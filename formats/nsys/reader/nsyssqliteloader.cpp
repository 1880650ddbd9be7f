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
        SqliteStatement st(db, QStringLiteral("SELECT name, value FROM ") % table);
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
        checkStatement(st, table);
        break;
    }
    if (db.hasTable(QStringLiteral("META_DATA_CAPTURE"))) {
        SqliteStatement st(db, QStringLiteral("SELECT name, value FROM META_DATA_CAPTURE"));
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
        meta.commandLine = parts.join(u' ').trimmed();
    }
    if (db.hasTable(QStringLiteral("TARGET_INFO_SESSION_START_TIME"))) {
        SqliteStatement st(db, selectSql(QStringLiteral("TARGET_INFO_SESSION_START_TIME"), {},
                                         {QStringLiteral("utcEpochNs")}));
        if (st.step() && st.column("utcEpochNs") >= 0)
            meta.sessionStartUtcNs = st.optInt64(0);
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
        checkStatement(st, QStringLiteral("PROCESSES"));
    }
    if (db.hasTable(QStringLiteral("ThreadNames"))) {
        SqliteStatement st(db,
                           selectSql(QStringLiteral("ThreadNames"),
                                     {QStringLiteral("nameId"), QStringLiteral("globalTid")}, {}));
        while (st.step()) {
            const std::int64_t g = st.int64(1);
            builder.setThreadName(pidOf(g), tidOf(g), str(st.optInt64(0)));
        }
        checkStatement(st, QStringLiteral("ThreadNames"));
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
    SqliteStatement st(db, selectSql(table, {idColumn}, optional));
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
    checkStatement(st, table);
}

void NsysSqliteLoader::Impl::readStreams() {
    const QString table = QStringLiteral("TARGET_INFO_CUDA_STREAM");
    if (!db.hasTable(table))
        return;
    SqliteStatement st(db, selectSql(table,
                                     {QStringLiteral("streamId"), QStringLiteral("processId"),
                                      QStringLiteral("contextId")},
                                     {QStringLiteral("priority"), QStringLiteral("flag")}));
    const int prio = st.column("priority"), flag = st.column("flag");
    while (st.step()) {
        std::optional<std::int32_t> priority;
        if (auto p = st.optInt64(prio))
            priority = std::int32_t(std::uint32_t(*p)); // stored as unsigned: 4294967291 is -5
        builder.setStreamInfo(std::uint32_t(st.int64(1)), std::uint32_t(st.int64(2)),
                              std::uint32_t(st.int64(0)), priority, std::uint8_t(st.int64(flag)));
    }
    checkStatement(st, table);
}

NsysSqliteLoader::NsysSqliteLoader(const QString& path, const LoadOptions& options)
    : d(std::make_unique<Impl>(path, options)) {}

NsysSqliteLoader::~NsysSqliteLoader() = default;

LoadResult NsysSqliteLoader::load() {
    LoadResult result;
    try {
        QString error;
        if (!d->db.open(d->path, &error))
            throw LoadFailure{QStringLiteral("Cannot open '") % d->fileName() %
                              QStringLiteral("': ") % error % u'.'};
        if (!looksLikeNsysExport(d->db)) {
            if (d->db.lastError().contains(QLatin1String("malformed")) ||
                d->db.lastError().contains(QLatin1String("not a database")))
                throw LoadFailure{QStringLiteral("Cannot read '") % d->fileName() %
                                  QStringLiteral("': ") % d->db.lastError() % u'.'};
            throw LoadFailure{
                u'\'' % d->fileName() %
                QStringLiteral("' is an SQLite database but not an Nsight Systems export: it has "
                               "no StringIds table or no trace tables.")};
        }
        d->report(0);
        if (d->options.threads >= 2 && !d->scanConnection.open(d->path, &error))
            throw LoadFailure{QStringLiteral("Cannot open '") % d->fileName() %
                              QStringLiteral("': ") % error % u'.'};
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
        // Missing tables and empty ones (a build step that exported nothing) alike.
        const TraceCounts& n = b.counts();
        if (n.kernels + n.memcpys + n.memsets + n.cudaApiCalls + n.syncs + n.nvtxRanges +
                n.nvtxMarks + n.osrtCalls ==
            0)
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
