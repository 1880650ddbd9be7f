// SPDX-License-Identifier: MIT
// Reading the CPU side of an nsys export: CUDA API calls, NVTX events, OS runtime calls.
#include "formats/nsys/reader/nsysloaderimpl.h"

namespace strobe {

using namespace nsysload;

void NsysSqliteLoader::Impl::readRuntime() {
    if (!db.hasTable(kRuntimeTable))
        return;
    using R = schema::Runtime;
    const QStringList absent = absentOptional<R>();
    SqliteRowStream st(scanners(), options.cancel, selectSql<R>(), kRuntimeTable);
    auto col = [&](R::Col c) { return st.column(R::col(c)); };
    const int cStart = col(R::start), cEnd = col(R::end), cTid = col(R::globalTid),
              cCorr = col(R::correlationId), cName = col(R::nameId);
    const int cls = col(R::eventClass), ret = col(R::returnValue);
    while (st.step()) {
        rowDone();
        const std::int64_t eventClass = st.int64(cls);
        if (cls >= 0 && eventClass != 0 && eventClass != 1)
            continue; // 67: CUDA backtrace duplicates of calls already recorded
        const TimeNs start = st.int64(cStart);
        const TimeNs end = checkedEnd(start, st.int64(cEnd));
        const std::int64_t g = st.int64(cTid);
        ApiCallRecord r;
        r.correlationId = std::uint32_t(st.int64(cCorr));
        r.returnValue = st.int64(ret);
        r.eventClass = std::uint8_t(eventClass);
        builder.addApiCall(pidOf(g), tidOf(g), start, end, str(st.optInt64(cName)), r);
        ++builder.counts().cudaApiCalls;
    }
    checkStatement(st, kRuntimeTable);
    warnAbsentColumns(kRuntimeTable, absent, builder.counts().cudaApiCalls);
}

void NsysSqliteLoader::Impl::readNvtx() {
    if (!db.hasTable(kNvtxTable))
        return;
    using N = schema::Nvtx;
    const QStringList absent = absentOptional<N>();
    SqliteRowStream st(scanners(), options.cancel, selectSql<N>(), kNvtxTable);
    auto col = [&](N::Col c) { return st.column(N::col(c)); };
    const int cStart = col(N::start), cType = col(N::eventType);
    const int endCol = col(N::end), gtid = col(N::globalTid), egtid = col(N::endGlobalTid),
              text = col(N::text), textId = col(N::textId), domain = col(N::domainId),
              color = col(N::color), category = col(N::category);
    struct Row {
        TimeNs start;
        std::optional<TimeNs> end;
        std::int64_t globalTid;
        std::optional<std::int64_t> endGlobalTid;
        StringId name;
        std::uint64_t domainId;
        std::optional<std::int64_t> color, category;
        int type;
    };
    // Rows are added as they come; only those of a domain whose name row (75) has not been seen
    // yet wait until the end of the table (nsys writes domain creation first, so almost none).
    std::vector<Row> deferred;
    QHash<quint64, StringId> domains; // (pid, domainId) -> name
    auto domainKey = [](std::uint32_t pid, std::uint64_t id) { return (quint64(pid) << 40) ^ id; };
    std::uint64_t openRanges = 0;
    auto add = [&](const Row& r, StringId domainName) {
        NvtxRecord rec;
        rec.style = r.type == 34                     ? NvtxStyle::Mark
                    : (r.type == 60 || r.type == 71) ? NvtxStyle::StartEnd
                                                     : NvtxStyle::PushPop;
        if (r.color)
            rec.color = std::uint32_t(*r.color & 0xFFFFFFFF);
        if (r.category)
            rec.category = std::int32_t(*r.category);
        TimeNs end = r.start;
        if (rec.style == NvtxStyle::Mark) {
            ++builder.counts().nvtxMarks;
        } else {
            ++builder.counts().nvtxRanges;
            if (r.end) {
                end = checkedEnd(r.start, *r.end);
            } else {
                rec.hasEnd = false;
                ++openRanges;
            }
        }
        std::optional<std::uint32_t> endTid;
        if (r.endGlobalTid)
            endTid = tidOf(*r.endGlobalTid);
        builder.addNvtx(pidOf(r.globalTid), tidOf(r.globalTid), domainName, r.start, end, r.name,
                        rec, endTid);
    };
    // Inline texts repeat in runs: the previous one by content skips most hash lookups.
    std::string lastText;
    StringId lastTextId = kNoString;
    while (st.step()) {
        rowDone();
        const int type = int(st.int64(cType));
        StringId name;
        if (!st.isNull(text)) {
            const std::string_view t = st.text(text);
            if (t != lastText) {
                lastText.assign(t);
                lastTextId = internName(t);
            }
            name = lastTextId;
        } else {
            name = str(st.optInt64(textId));
        }
        const std::int64_t g = st.int64(gtid);
        const auto domainId = std::uint64_t(st.int64(domain));
        switch (type) {
        case 75: // domain create: the name of (process, domainId)
            domains.insert(domainKey(pidOf(g), domainId), name);
            continue;
        case 39: // nvtxNameOsThread: the user's name for the thread wins
            builder.setThreadName(pidOf(g), tidOf(g), name);
            continue;
        case 59:
        case 70:
        case 60:
        case 71:
        case 34:
            break;
        default:
            continue;
        }
        const Row r{
            st.int64(cStart),   st.optInt64(endCol),   g,   st.optInt64(egtid), name, domainId,
            st.optInt64(color), st.optInt64(category), type};
        if (domainId == 0) {
            add(r, kNoString);
        } else if (auto it = domains.constFind(domainKey(pidOf(g), domainId));
                   it != domains.constEnd()) {
            add(r, it.value());
        } else {
            deferred.push_back(r);
        }
    }
    checkStatement(st, kNvtxTable);
    warnAbsentColumns(kNvtxTable, absent, builder.counts().nvtxRanges + builder.counts().nvtxMarks);
    for (const Row& r : deferred)
        add(r, domains.value(domainKey(pidOf(r.globalTid), r.domainId), kNoString));
    builder.warn(QStringLiteral("open-nvtx-range"), openRanges,
                 QStringLiteral("%1 NVTX ranges have no end (NULL); they are drawn to the end of "
                                "the trace and left out of NVTX statistics."));
}

void NsysSqliteLoader::Impl::readOsrt() {
    if (!db.hasTable(kOsrtTable))
        return;
    using O = schema::Osrt;
    const QStringList absent = absentOptional<O>();
    SqliteRowStream st(scanners(), options.cancel, selectSql<O>(), kOsrtTable);
    auto col = [&](O::Col c) { return st.column(O::col(c)); };
    const int cStart = col(O::start), cEnd = col(O::end), cTid = col(O::globalTid),
              cName = col(O::nameId);
    const int cls = col(O::eventClass), ret = col(O::returnValue), nest = col(O::nestingLevel);
    while (st.step()) {
        rowDone();
        if (cls >= 0 && st.int64(cls) != 27)
            continue; // 31/32: profiler start/finish markers, not calls
        const TimeNs start = st.int64(cStart);
        const TimeNs end = checkedEnd(start, st.int64(cEnd));
        const std::int64_t g = st.int64(cTid);
        OsrtRecord r;
        r.returnValue = st.int64(ret);
        r.nestingLevel = std::uint32_t(st.int64(nest));
        builder.addOsrtCall(pidOf(g), tidOf(g), start, end, str(st.optInt64(cName)), r);
        ++builder.counts().osrtCalls;
    }
    checkStatement(st, kOsrtTable);
    warnAbsentColumns(kOsrtTable, absent, builder.counts().osrtCalls);
}

} // namespace strobe
