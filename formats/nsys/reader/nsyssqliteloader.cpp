// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/nsysloaderimpl.h"

#include <algorithm>
#include <array>
#include <map>

namespace strobe {

using namespace nsysload;

bool looksLikeNsysExport(const SqliteDb& db) {
    if (!db.hasTable(qs(schema::StringIds::table)))
        return false;
    for (const QString& t : {qs(schema::ExportMeta::table), qs(schema::ExportMeta::tableV2_9),
                             kKernelTable, kRuntimeTable, kNvtxTable, kOsrtTable, kMemcpyTable}) {
        if (db.hasTable(t))
            return true;
    }
    return false;
}

namespace {

// "SELECT name, value FROM <table>" for a (name, value) metadata table.
template <typename T> QString selectNameValue(const QString& table) {
    return QStringLiteral("SELECT ") % qs(T::col(T::name)) % QStringLiteral(", ") %
           qs(T::col(T::value)) % QStringLiteral(" FROM ") % table;
}

// The launchers' variables a rank's number and the world size are read from, most common first
// (torchrun, Open MPI, Slurm, MPICH/Intel MPI). LOCAL_RANK is left out: it numbers the ranks of
// one host, so two hosts' reports would claim the same ranks (docs/JOBS.md).
constexpr std::array<std::string_view, 4> kRankVariables = {"RANK", "OMPI_COMM_WORLD_RANK",
                                                            "SLURM_PROCID", "PMI_RANK"};
constexpr std::array<std::string_view, 4> kWorldSizeVariables = {
    "WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE"};

// The first of `names` set in `env` to a number, if any.
template <std::size_t N>
std::optional<std::uint32_t> firstNumber(const std::map<QString, QString>& env,
                                         const std::array<std::string_view, N>& names) {
    for (const std::string_view name : names) {
        const auto it = env.find(qs(name));
        bool ok = false;
        const uint v = it == env.end() ? 0 : it->second.trimmed().toUInt(&ok);
        if (ok)
            return std::uint32_t(v);
    }
    return std::nullopt;
}

} // namespace

void NsysSqliteLoader::Impl::readMetadata() {
    namespace key = schema::metakey;
    using E = schema::ExportMeta;
    TraceMetadata& meta = builder.metadata();
    meta.format = QStringLiteral("nsys-sqlite");
    meta.productName = QStringLiteral("Nsight Systems");
    for (const QString& table : {qs(E::table), qs(E::tableV2_9)}) {
        if (!db.hasTable(table))
            continue;
        const QString sql =
            optionalTableSql(table, {qs(E::col(E::name)), qs(E::col(E::value))}, {});
        if (sql.isEmpty())
            break;
        SqliteStatement st(db, sql);
        while (st.step()) {
            const auto name = st.text(0);
            const QString value = QString::fromUtf8(st.text(1));
            if (name == key::kProductVersion)
                meta.nsysVersion = value;
            else if (name == key::kSchemaVersion)
                meta.schemaVersion = value;
            else if (name == key::kProductName && !value.isEmpty())
                meta.productName = value;
        }
        optionalTableOk(st, table);
        break;
    }
    using C = schema::CaptureMeta;
    if (const QString capture = qs(C::table); db.hasTable(capture)) {
        const QString sql =
            optionalTableSql(capture, {qs(C::col(C::name)), qs(C::col(C::value))}, {});
        SqliteStatement st(db, sql.isEmpty() ? QStringLiteral("SELECT 1 WHERE 0") : sql);
        const QString argumentPrefix = qs(key::kArgumentPrefix);
        const QString environment = qs(key::kEnvironmentVariable);
        QString command;
        QMap<int, QString> args;
        std::map<QString, QString> env; // the rank and world size variables only
        while (st.step()) {
            const QString name = QString::fromUtf8(st.text(0));
            if (name == qs(key::kCommand)) {
                command = QString::fromUtf8(st.text(1));
            } else if (name.startsWith(argumentPrefix)) {
                args.insert(name.mid(argumentPrefix.size()).toInt(), QString::fromUtf8(st.text(1)));
            } else if (name == environment) {
                const QString v = QString::fromUtf8(st.text(1));
                const qsizetype eq = v.indexOf(u'=');
                const QString var = eq > 0 ? v.left(eq) : QString();
                const auto known = [&var](std::string_view n) { return var == qs(n); };
                if (std::any_of(kRankVariables.begin(), kRankVariables.end(), known) ||
                    std::any_of(kWorldSizeVariables.begin(), kWorldSizeVariables.end(), known))
                    env[var] = v.mid(eq + 1);
            }
        }
        // The profiled process's rank, as its launcher set it (a report per rank:
        // `nsys profile -o report_%q{RANK}` under torchrun or srun).
        if (!meta.rank)
            meta.rank = firstNumber(env, kRankVariables);
        if (!meta.worldSize)
            meta.worldSize = firstNumber(env, kWorldSizeVariables);
        QStringList parts{command};
        parts << args.values();
        if (!sql.isEmpty() && optionalTableOk(st, capture))
            meta.commandLine = parts.join(u' ').trimmed();
    }
    using S = schema::SessionStart;
    if (db.hasTable(qs(S::table))) {
        SqliteStatement st(db, selectSql<S>());
        const int utc = st.column(S::col(S::utcEpochNs));
        if (st.step() && utc >= 0)
            meta.sessionStartUtcNs = st.optInt64(utc);
        optionalTableOk(st, qs(S::table));
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
    using S = schema::StringIds;
    const QString table = qs(S::table);
    SqliteStatement st(db, selectSql<S>());
    const int cId = st.column(S::col(S::id)), cValue = st.column(S::col(S::value));
    std::vector<std::pair<std::int64_t, StringId>> pairs;
    std::int64_t maxId = -1;
    while (st.step()) {
        const std::int64_t id = st.int64(cId);
        pairs.emplace_back(id, internName(st.text(cValue)));
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
    using P = schema::Processes;
    if (db.hasTable(qs(P::table))) {
        SqliteStatement st(db, selectSql<P>());
        const int gpid = st.column(P::col(P::globalPid)), pid = st.column(P::col(P::pid)),
                  name = st.column(P::col(P::name));
        while (st.step()) {
            const std::uint32_t p =
                !st.isNull(gpid) ? pidOf(st.int64(gpid)) : std::uint32_t(st.int64(pid));
            builder.setProcessName(p, internName(st.text(name)));
        }
        optionalTableOk(st, qs(P::table));
    }
    using T = schema::ThreadNames;
    if (db.hasTable(qs(T::table))) {
        const QString sql = optionalTableSql<T>();
        if (sql.isEmpty())
            return;
        SqliteStatement st(db, sql);
        const int cName = st.column(T::col(T::nameId)), cTid = st.column(T::col(T::globalTid));
        while (st.step()) {
            const std::int64_t g = st.int64(cTid);
            builder.setThreadName(pidOf(g), tidOf(g), str(st.optInt64(cName)));
        }
        optionalTableOk(st, qs(T::table));
    }
}

void NsysSqliteLoader::Impl::readGpus() {
    using G = schema::Gpu;
    QString table = qs(G::table);
    std::string_view idColumn = G::col(G::id);
    if (!db.hasTable(table)) {
        table = qs(G::tableBefore2021_3);
        idColumn = G::idBefore2021_3;
        if (!db.hasTable(table))
            return;
    }
    const QString sql = optionalTableSql(table, {qs(idColumn)}, columnNames<G>(G::readOptional));
    if (sql.isEmpty())
        return;
    SqliteStatement st(db, sql);
    auto u = [&](G::Col c) {
        return std::uint32_t(std::max<std::int64_t>(0, st.int64(st.column(G::col(c)))));
    };
    auto u64 = [&](G::Col c) {
        return std::uint64_t(std::max<std::int64_t>(0, st.int64(st.column(G::col(c)))));
    };
    const int cId = st.column(idColumn);
    // A hostile file's table can hold any number of rows: polled as the event tables are (the
    // builder keeps only kMaxGpuDescriptions of them).
    for (std::uint64_t row = 0; st.step(); ++row) {
        if (row % 4096 == 0)
            checkCancel();
        GpuInfo g;
        g.id = std::uint32_t(st.int64(cId));
        g.name = internName(st.text(st.column(G::col(G::name))));
        g.smCount = u(G::smCount);
        g.computeMajor = u(G::computeMajor);
        g.computeMinor = u(G::computeMinor);
        g.maxThreadsPerBlock = u(G::maxThreadsPerBlock);
        g.maxRegistersPerBlock = u(G::maxRegistersPerBlock);
        g.maxRegistersPerSm = u(G::maxRegistersPerSm);
        g.maxShmemPerBlock = u(G::maxShmemPerBlock);
        g.maxShmemPerBlockOptin = u(G::maxShmemPerBlockOptin);
        g.maxShmemPerSm = u(G::maxShmemPerSm);
        g.threadsPerWarp = u(G::threadsPerWarp);
        g.maxWarpsPerSm = u(G::maxWarpsPerSm);
        g.maxBlocksPerSm = u(G::maxBlocksPerSm);
        g.totalMemory = u64(G::totalMemory);
        g.memoryBandwidth = u64(G::memoryBandwidth);
        g.clockRate = u64(G::clockRate);
        g.busLocation = internName(st.text(st.column(G::col(G::busLocation))));
        g.chipName = internName(st.text(st.column(G::col(G::chipName))));
        builder.addGpu(g);
    }
    optionalTableOk(st, table);
}

void NsysSqliteLoader::Impl::readStreams() {
    using S = schema::Stream;
    const QString table = qs(S::table);
    if (!db.hasTable(table))
        return;
    const QString sql = optionalTableSql<S>();
    if (sql.isEmpty())
        return;
    SqliteStatement st(db, sql);
    const int cStream = st.column(S::col(S::streamId)), cPid = st.column(S::col(S::processId)),
              cContext = st.column(S::col(S::contextId));
    const int prio = st.column(S::col(S::priority)), flag = st.column(S::col(S::flag));
    while (st.step()) {
        std::optional<std::int32_t> priority;
        if (auto p = st.optInt64(prio))
            priority = std::int32_t(std::uint32_t(*p)); // stored as unsigned: 4294967291 is -5
        builder.setStreamInfo(std::uint32_t(st.int64(cPid)), std::uint32_t(st.int64(cContext)),
                              std::uint32_t(st.int64(cStream)), priority,
                              std::uint8_t(st.int64(flag)));
    }
    optionalTableOk(st, table);
}

void NsysSqliteLoader::Impl::probeExtent(const QStringList& tables) {
    // The tables are written about in time order: their first and last rows bound nearly every
    // event, for the price of two short seeks each. A guess for previews only, so a table that
    // cannot be probed is passed over.
    constexpr int kRows = 256;
    TimeNs first = kMaxTime, last = kMinTime;
    for (const QString& table : tables) {
        const QStringList times{QStringLiteral("start"), QStringLiteral("end")};
        const QString rowid = rowidName(db, table);
        if (rowid.isEmpty() || !missingColumns(table, times).isEmpty())
            continue;
        for (const QString& order : {QString(), QStringLiteral(" DESC")}) {
            SqliteStatement st(db, QStringLiteral("SELECT start, end FROM ") % table %
                                       QStringLiteral(" ORDER BY ") % rowid % order %
                                       QStringLiteral(" LIMIT ") % QString::number(kRows));
            while (st.step()) {
                const TimeNs start = clampTime(st.int64(0));
                first = std::min(first, start);
                last = std::max(last, st.isNull(1) ? start : clampTime(st.int64(1)));
            }
        }
    }
    if (first < last)
        extent = TimeRange{first, last};
}

namespace {

// The parts read from the GPU tables and from the CPU-side ones.
constexpr TraceParts kGpuTableParts = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
constexpr TraceParts kCpuTableParts = TracePart::CudaApi | TracePart::Syncs | TracePart::GpuMemory |
                                      TracePart::Nvtx | TracePart::Osrt;

// The event table of each part the nsys export has.
const std::pair<TracePart, const QString*> kPartTables[] = {
    {TracePart::Kernels, &kKernelTable}, {TracePart::Memcpys, &kMemcpyTable},
    {TracePart::Memsets, &kMemsetTable}, {TracePart::CudaApi, &kRuntimeTable},
    {TracePart::Syncs, &kSyncTable},     {TracePart::GpuMemory, &kGpuMemoryTable},
    {TracePart::Nvtx, &kNvtxTable},      {TracePart::Osrt, &kOsrtTable}};

// The event tables of `parts`.
QStringList eventTables(TraceParts parts) {
    QStringList out;
    for (const auto& [part, table] : kPartTables) {
        if (parts.testFlag(part))
            out << *table;
    }
    return out;
}

// Every table the loader reads for `parts`: the authorizer refuses reads of anything else, so
// the tables of a part left out are never queried.
QStringList readableTables(TraceParts parts) {
    return QStringList{qs(schema::StringIds::table),       qs(schema::ExportMeta::table),
                       qs(schema::ExportMeta::tableV2_9),  qs(schema::CaptureMeta::table),
                       qs(schema::SessionStart::table),    qs(schema::Processes::table),
                       qs(schema::ThreadNames::table),     qs(schema::Gpu::table),
                       qs(schema::Gpu::tableBefore2021_3), qs(schema::Stream::table)} +
           eventTables(parts);
}

// The budget for all SQL on a file: 30 s plus 1 s per MB, ten times or more a normal load even on
// a busy 2-core machine (a 1 GB export of 17M events loads in 5 to 45 s there).
std::chrono::milliseconds timeBudget(const QString& path, const LoadOptions& options) {
    if (options.timeBudget.count() > 0)
        return options.timeBudget;
    return std::chrono::milliseconds(30'000 + QFileInfo(path).size() / 1'000);
}

} // namespace

bool NsysSqliteLoader::Impl::sendQuickGpuPreview() {
    LoadOptions quick;
    quick.cancel = options.cancel;
    quick.threads = options.threads;
    quick.timeBudget = options.timeBudget;
    quick.parts = options.parts & kGpuTableParts;
    quick.previewMinRows = 0;
    quick.gpuSampleMinRows = options.gpuSampleMinRows;
    quick.gpuSampleInterval = options.gpuSampleInterval;
    quick.earlyPreviewAfter =
        std::max(std::chrono::milliseconds(0),
                 options.earlyPreviewAfter - std::chrono::milliseconds(sinceOpen.elapsed()));
    quick.preview = [this](std::unique_ptr<Trace> t) {
        earlyPreviewSent = true; // where the pass fails after it, the full read sends no other
        TraceBuilder::markGpuPreview(*t, t->metadata().stage, extent); // the CPU side's extent too
        options.preview(std::move(t));
    };
    constexpr int kQuickShare = 100; // per mille of the progress: the pass reads ~a tenth
    quick.progress = [this](int permille) { report(permille * kQuickShare / 1000); };
    NsysSqliteLoader loader(path, quick);
    loader.d->sampledPasses = true;
    LoadResult r = loader.load();
    checkCancel();
    if (!r.trace)
        return false;
    TraceBuilder::markGpuPreview(*r.trace, TraceStage::GpuSide, extent);
    options.preview(std::move(r.trace));
    return true;
}

NsysSqliteLoader::NsysSqliteLoader(const QString& path, const LoadOptions& options)
    : d(std::make_unique<Impl>(path, options)) {}

NsysSqliteLoader::~NsysSqliteLoader() = default;

LoadResult NsysSqliteLoader::load() {
    return loadAtBoundary(d->fileName(), [this] {
        QString error;
        const TraceParts parts = d->options.parts & kAllTraceParts;
        const SqliteGuard guard{d->options.cancel, timeBudget(d->path, d->options),
                                readableTables(parts)};
        auto openFailure = [&] {
            d->checkCancel();
            return LoadFailure{QStringLiteral("Cannot read '") % d->fileName() %
                               QStringLiteral("': ") % error % u'.'};
        };
        d->sinceOpen.start();
        if (!d->db.open(d->path, guard, &error))
            throw openFailure();
        if (!looksLikeNsysExport(d->db))
            throw LoadFailure{
                u'\'' % d->fileName() %
                QStringLiteral("' is an SQLite database but not an Nsight Systems export: it has "
                               "no StringIds table or no trace tables (views and virtual tables "
                               "are not read).")};
        d->report(0);
        const int workers = std::clamp(d->options.threads - 1, 0, 2);
        for (int i = 0; i < workers; ++i) {
            if (!d->scanConnections[i].open(d->path, guard, &error))
                throw openFailure();
        }
        QStringList nonTables;
        for (const QString& t : readableTables(parts)) {
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
        d->rowsTotal = 1 + d->estimateRows(qs(schema::StringIds::table));
        for (const QString& t : eventTables(parts)) {
            if (t != kGpuMemoryTable) // few rows, not counted in progress
                d->rowsTotal += d->estimateRows(t);
        }
        d->previews = d->options.preview && d->rowsTotal >= d->options.previewMinRows;
        if (d->previews)
            d->probeExtent(eventTables(parts));
        // A GPU-side preview only where a CPU side is still to come (of a load of the GPU side
        // alone it would be the result, frozen twice). It comes from a quick pass, first of all
        // so that its early preview is early; where that fails, from the full read's GPU side.
        bool gpuSidePreview = d->previews && (parts & kCpuTableParts) && (parts & kGpuTableParts);
        if (gpuSidePreview && d->sendQuickGpuPreview())
            gpuSidePreview = d->previews = false; // nor an early one of the full read
        d->readMetadata();
        d->builder.metadata().loadedParts = parts;
        d->readStrings();
        d->readProcessesAndThreads();
        d->readGpus();
        d->readStreams();
        // The GPU side first, so that a preview can show it while the CPU side is read.
        const std::pair<TracePart, void (Impl::*)()> gpuSide[] = {
            {TracePart::Kernels, &Impl::readKernels},
            {TracePart::Memcpys, &Impl::readMemcpys},
            {TracePart::Memsets, &Impl::readMemsets}};
        const std::pair<TracePart, void (Impl::*)()> cpuSide[] = {
            {TracePart::CudaApi, &Impl::readRuntime},
            {TracePart::Syncs, &Impl::readSyncs},
            {TracePart::GpuMemory, &Impl::readGpuMemory},
            {TracePart::Nvtx, &Impl::readNvtx},
            {TracePart::Osrt, &Impl::readOsrt}};
        d->readingGpuSide = true;
        // The quick pass of a big trace in sampled passes: its previews replace the early one.
        const bool sampled = d->sampledPasses && d->previews &&
                             d->readGpuSideInPasses({std::begin(gpuSide), std::end(gpuSide)});
        for (const auto& [part, read] : gpuSide) {
            if (!sampled && d->wants(part))
                (d.get()->*read)();
        }
        d->readingGpuSide = false;
        if (gpuSidePreview)
            d->sendPreview(TraceStage::GpuSide);
        for (const auto& [part, read] : cpuSide) {
            if (d->wants(part))
                (d.get()->*read)();
        }
        d->checkCancel();

        TraceBuilder& b = d->builder;
        // Missing tables and empty ones (a build step that exported nothing) alike; only a
        // complete load can say so.
        const TraceCounts& n = b.counts();
        const TraceParts allEvents = kGpuWorkParts | TracePart::CudaApi | TracePart::Syncs |
                                     TracePart::Nvtx | TracePart::Osrt;
        if ((parts & allEvents) == allEvents && n.kernels + n.memcpys + n.memsets + n.cudaApiCalls +
                                                        n.syncs + n.nvtxRanges + n.nvtxMarks +
                                                        n.osrtCalls ==
                                                    0)
            b.warn(QStringLiteral("no-events"), 1,
                   QStringLiteral("The export recorded no CUDA, NVTX or OS runtime events (%1 "
                                  "file); the profiled program may not have used the GPU."));
        b.warn(
            QStringLiteral("inverted-interval"), d->invertedTimes,
            QStringLiteral("%1 events end before they start; their end was set to their start."));
        b.warn(QStringLiteral("negative-time"), d->negativeTimes,
               QStringLiteral("%1 events start before time zero (before the capture window)."));
        b.warn(QStringLiteral("long-name"), d->longNames,
               QStringLiteral("%1 names are longer than 64 KiB; they were cut to 64 KiB."));
        b.warn(QStringLiteral("dangling-string"), d->danglingStrings,
               QStringLiteral(
                   "%1 string ids point to no entry of StringIds; those names are shown empty."));
        d->report(920);
        // Every table is read: the connections' page caches go before finishing makes the
        // load's peak.
        for (SqliteDb* c : {&d->scanConnections[0], &d->scanConnections[1], &d->db})
            c->close();
        // The GPU side alone (the quick pass, strobe-cli's kernel commands) is a fraction of a
        // whole load's memory: its lanes are sorted on every thread the load has.
        const bool gpuSideAlone = !(parts & kCpuTableParts);
        std::unique_ptr<Trace> trace =
            b.finish(d->options.cancel, gpuSideAlone ? d->options.threads : 1);
        if (!trace)
            throw LoadCancelled{};
        d->report(1000);
        return trace;
    });
}

} // namespace strobe
