// SPDX-License-Identifier: MIT
#include "model/job/summaryjson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringBuilder>

namespace strobe {

namespace {

QJsonValue optional(const std::optional<std::uint32_t>& v) {
    return v ? QJsonValue(qint64(*v)) : QJsonValue();
}

QJsonObject breakdownJson(const RankBreakdown& b) {
    return {{QStringLiteral("compute_ns"), qint64(b.compute)},
            {QStringLiteral("communication_ns"), qint64(b.communication)},
            {QStringLiteral("exposed_communication_ns"), qint64(b.exposedCommunication)},
            {QStringLiteral("memory_ns"), qint64(b.memory)},
            {QStringLiteral("idle_ns"), qint64(b.idle)},
            {QStringLiteral("span_ns"), qint64(b.span)}};
}

// Reads members one by one and keeps the first thing wrong as a phrase ("steps[3].start_ns is
// not a time"); every getter returns a harmless value once something is wrong.
class Checked {
public:
    QString error;

    bool ok() const { return error.isEmpty(); }
    void fail(const QString& what) {
        if (error.isEmpty())
            error = what;
    }
    QJsonValue member(const QJsonObject& o, const QString& key, const QString& where) {
        QJsonValue v = o.value(key);
        if (v.isUndefined())
            fail(where % key % QStringLiteral(" is missing"));
        return v;
    }
    // An integer in [lo, hi], else nullopt.
    static std::optional<std::int64_t> exact(const QJsonValue& v, std::int64_t lo,
                                             std::int64_t hi) {
        // toInteger() returns its default for a fraction or a value past 64 bits: two defaults
        // tell a real integer from one.
        const qint64 a = v.toInteger(0), b = v.toInteger(1);
        if (!v.isDouble() || a != b || a < lo || a > hi)
            return std::nullopt;
        return a;
    }
    std::int64_t integer(const QJsonValue& v, const QString& what, std::int64_t lo,
                         std::int64_t hi) {
        if (const auto a = exact(v, lo, hi))
            return *a;
        fail(what % QStringLiteral(" is not an integer in range"));
        return lo < 0 && hi > 0 ? 0 : lo;
    }
    TimeNs time(const QJsonObject& o, const QString& key, const QString& where) {
        return integer(member(o, key, where), where % key, kMinTime, kMaxTime);
    }
    TimeNs duration(const QJsonObject& o, const QString& key, const QString& where) {
        return integer(member(o, key, where), where % key, 0, kMaxTime);
    }
    std::optional<std::uint32_t> optionalU32(const QJsonObject& o, const QString& key) {
        const QJsonValue v = member(o, key, {});
        if (v.isNull())
            return std::nullopt;
        return std::uint32_t(integer(v, key, 0, 0xFFFFFFFF));
    }
    QString string(const QJsonObject& o, const QString& key, const QString& where) {
        const QJsonValue v = member(o, key, where);
        if (!v.isString())
            fail(where % key % QStringLiteral(" is not a string"));
        return v.toString();
    }
    QJsonObject object(const QJsonValue& v, const QString& what) {
        if (!v.isObject())
            fail(what % QStringLiteral(" is not an object"));
        return v.toObject();
    }
    QJsonArray array(const QJsonValue& v, const QString& what) {
        if (!v.isArray())
            fail(what % QStringLiteral(" is not an array"));
        return v.toArray();
    }
    TimeRange range(const QJsonValue& v, const QString& what) {
        const QJsonArray a = array(v, what);
        if (a.size() != 2) {
            fail(what % QStringLiteral(" is not a [start, end] pair"));
            return {};
        }
        const TimeRange r{integer(a[0], what, kMinTime, kMaxTime),
                          integer(a[1], what, kMinTime, kMaxTime)};
        if (r.end < r.start)
            fail(what % QStringLiteral(" ends before it starts"));
        return r;
    }
    RankBreakdown breakdown(const QJsonValue& v, const QString& what) {
        const QJsonObject o = object(v, what);
        const QString w = what % u'.';
        RankBreakdown b;
        b.compute = duration(o, QStringLiteral("compute_ns"), w);
        b.communication = duration(o, QStringLiteral("communication_ns"), w);
        b.exposedCommunication = duration(o, QStringLiteral("exposed_communication_ns"), w);
        b.memory = duration(o, QStringLiteral("memory_ns"), w);
        b.idle = duration(o, QStringLiteral("idle_ns"), w);
        b.span = duration(o, QStringLiteral("span_ns"), w);
        if (ok() && (b.exposedCommunication > b.communication || b.idle > b.span ||
                     b.compute > b.span || b.communication > b.span || b.memory > b.span))
            fail(what % QStringLiteral(" has parts larger than their whole"));
        return b;
    }
};

// Collectives are columns, not an object each: a rank has up to hundreds of thousands of them.
// Kinds and process groups are listed once and referenced by their index.
QJsonObject collectivesJson(const std::vector<RankCollective>& list) {
    QStringList kinds, groups;
    QJsonArray kind, group, stream, order, start, end, bytes;
    const auto indexIn = [](QStringList& names, const QString& name) {
        qsizetype i = names.indexOf(name);
        if (i < 0) {
            i = names.size();
            names << name;
        }
        return qint64(i);
    };
    for (const RankCollective& c : list) {
        kind.append(indexIn(kinds, c.kind));
        group.append(c.processGroup ? QJsonValue(indexIn(groups, *c.processGroup)) : QJsonValue());
        stream.append(qint64(c.streamOrdinal));
        order.append(qint64(c.order));
        start.append(qint64(c.gpu.start));
        end.append(qint64(c.gpu.end));
        bytes.append(c.bytes ? QJsonValue(qint64(*c.bytes)) : QJsonValue());
    }
    return {{QStringLiteral("kinds"), QJsonArray::fromStringList(kinds)},
            {QStringLiteral("process_groups"), QJsonArray::fromStringList(groups)},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("process_group"), group},
            {QStringLiteral("stream"), stream},
            {QStringLiteral("order"), order},
            {QStringLiteral("start_ns"), start},
            {QStringLiteral("end_ns"), end},
            {QStringLiteral("bytes"), bytes}};
}

std::vector<RankCollective> collectivesFrom(Checked& in, const QJsonValue& v) {
    const QString what = QStringLiteral("collectives");
    const QJsonObject o = in.object(v, what);
    const auto column = [&](const char* key) {
        return in.array(in.member(o, QLatin1String(key), what % u'.'),
                        what % u'.' % QLatin1String(key));
    };
    const auto names = [&](const char* key) {
        QStringList out;
        for (const auto& name : column(key)) {
            if (!name.isString() || name.toString().isEmpty())
                in.fail(what % u'.' % QLatin1String(key) % QStringLiteral(" holds a non-name"));
            out << name.toString();
        }
        return out;
    };
    const QStringList kinds = names("kinds"), groups = names("process_groups");
    const QJsonArray kind = column("kind"), group = column("process_group"),
                     stream = column("stream"), order = column("order"), start = column("start_ns"),
                     end = column("end_ns"), bytes = column("bytes");
    const qsizetype n = kind.size();
    for (const QJsonArray* c : {&group, &stream, &order, &start, &end, &bytes}) {
        if (c->size() != n)
            in.fail(what % QStringLiteral("' columns differ in length"));
    }
    std::vector<RankCollective> out;
    if (!in.ok())
        return out;
    out.reserve(std::size_t(n));
    for (qsizetype i = 0; i < n && in.ok(); ++i) {
        // The row's name is made only for the sentence: a rank has many rows.
        const auto field = [&](const QJsonValue& x, std::int64_t lo, std::int64_t hi,
                               const char* name) {
            const auto value = Checked::exact(x, lo, hi);
            if (!value)
                in.fail(what % u'[' % QString::number(i) % QStringLiteral("].") %
                        QLatin1String(name) % QStringLiteral(" is not an integer in range"));
            return value.value_or(0);
        };
        constexpr std::int64_t u32 = 0xFFFFFFFF;
        RankCollective c;
        // An empty list makes the range [0, -1]: every index fails.
        c.kind = kinds.value(qsizetype(field(kind[i], 0, kinds.size() - 1, "kind")));
        if (!group[i].isNull())
            c.processGroup =
                groups.value(qsizetype(field(group[i], 0, groups.size() - 1, "process_group")));
        c.streamOrdinal = std::uint32_t(field(stream[i], 0, u32, "stream"));
        c.order = std::uint32_t(field(order[i], 0, u32, "order"));
        c.gpu = {field(start[i], kMinTime, kMaxTime, "start_ns"),
                 field(end[i], kMinTime, kMaxTime, "end_ns")};
        if (in.ok() && c.gpu.end < c.gpu.start)
            in.fail(what % u'[' % QString::number(i) % QStringLiteral("] ends before it starts"));
        if (!bytes[i].isNull())
            c.bytes =
                std::uint64_t(field(bytes[i], 0, std::numeric_limits<qint64>::max(), "bytes"));
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

QByteArray rankSummaryToJson(const RankSummary& s) {
    QJsonArray steps;
    for (const RankStep& step : s.steps)
        steps.append(QJsonObject{
            {QStringLiteral("step"), qint64(step.number)},
            {QStringLiteral("host"), QJsonArray{qint64(step.host.start), qint64(step.host.end)}},
            {QStringLiteral("breakdown"), breakdownJson(step.breakdown)}});
    QJsonArray busy;
    for (TimeNs b : s.busy)
        busy.append(qint64(b));
    const QJsonObject root{
        {QStringLiteral("format"), QLatin1String(kRankSummaryFormat)},
        {QStringLiteral("version"), kRankSummaryVersion},
        {QStringLiteral("file"), s.file},
        {QStringLiteral("pid"), optional(s.pid)},
        {QStringLiteral("rank"), qint64(s.rank)},
        {QStringLiteral("rank_source"), rankSourceKey(s.rankSource)},
        {QStringLiteral("world_size"), optional(s.worldSize)},
        {QStringLiteral("backend"), s.backend},
        {QStringLiteral("trace_format"), s.format},
        {QStringLiteral("device_id"), optional(s.deviceId)},
        {QStringLiteral("gpu"), s.gpu},
        {QStringLiteral("clock_origin_ns"),
         s.clockOriginNs ? QJsonValue(qint64(*s.clockOriginNs)) : QJsonValue()},
        {QStringLiteral("gpu_span"), QJsonArray{qint64(s.gpuSpan.start), qint64(s.gpuSpan.end)}},
        {QStringLiteral("whole"), breakdownJson(s.whole)},
        {QStringLiteral("hta_window"), s.htaWindow ? breakdownJson(*s.htaWindow) : QJsonValue()},
        {QStringLiteral("steps"), steps},
        {QStringLiteral("collectives"), collectivesJson(s.collectives)},
        {QStringLiteral("busy_ns"), busy},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(s.warnings)},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<RankSummary> rankSummaryFromJson(const QByteArray& json, QString* error) {
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("is not a rank summary: it is not a JSON object");
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(kRankSummaryFormat)) {
        *error = QStringLiteral("is not a rank summary: its format is not \"") %
                 QLatin1String(kRankSummaryFormat) % u'"';
        return std::nullopt;
    }
    const QJsonValue version = root.value(QStringLiteral("version"));
    if (version.toInteger(-1) != kRankSummaryVersion) {
        *error = QStringLiteral("is a rank summary of version %1; this Strobe reads version %2 "
                                "(summarize the trace again)")
                     .arg(version.isDouble() ? QString::number(version.toDouble())
                                             : QStringLiteral("unknown"))
                     .arg(kRankSummaryVersion);
        return std::nullopt;
    }
    Checked in;
    RankSummary s;
    s.file = in.string(root, QStringLiteral("file"), {});
    s.pid = in.optionalU32(root, QStringLiteral("pid"));
    s.rank = std::uint32_t(in.integer(in.member(root, QStringLiteral("rank"), {}),
                                      QStringLiteral("rank"), 0, 0xFFFFFFFF));
    const auto source = rankSourceFromKey(in.string(root, QStringLiteral("rank_source"), {}));
    if (!source)
        in.fail(QStringLiteral("rank_source is not recorded, file-name or order"));
    s.rankSource = source.value_or(RankSource::Order);
    s.worldSize = in.optionalU32(root, QStringLiteral("world_size"));
    s.backend = in.string(root, QStringLiteral("backend"), {});
    s.format = in.string(root, QStringLiteral("trace_format"), {});
    s.deviceId = in.optionalU32(root, QStringLiteral("device_id"));
    s.gpu = in.string(root, QStringLiteral("gpu"), {});
    if (const QJsonValue v = in.member(root, QStringLiteral("clock_origin_ns"), {}); !v.isNull())
        s.clockOriginNs =
            in.integer(v, QStringLiteral("clock_origin_ns"), std::numeric_limits<qint64>::min(),
                       std::numeric_limits<qint64>::max());
    s.gpuSpan =
        in.range(in.member(root, QStringLiteral("gpu_span"), {}), QStringLiteral("gpu_span"));
    s.whole = in.breakdown(in.member(root, QStringLiteral("whole"), {}), QStringLiteral("whole"));
    if (const QJsonValue v = in.member(root, QStringLiteral("hta_window"), {}); !v.isNull())
        s.htaWindow = in.breakdown(v, QStringLiteral("hta_window"));
    const QJsonArray steps =
        in.array(in.member(root, QStringLiteral("steps"), {}), QStringLiteral("steps"));
    for (qsizetype i = 0; i < steps.size() && in.ok(); ++i) {
        const QString what = QStringLiteral("steps[%1]").arg(i);
        const QJsonObject o = in.object(steps[i], what);
        RankStep step;
        step.number = std::uint64_t(in.integer(in.member(o, QStringLiteral("step"), what % u'.'),
                                               what, 0, std::numeric_limits<qint64>::max()));
        step.host = in.range(in.member(o, QStringLiteral("host"), what % u'.'), what);
        step.breakdown = in.breakdown(in.member(o, QStringLiteral("breakdown"), what % u'.'), what);
        if (!s.steps.empty() && step.host.start < s.steps.back().host.start)
            in.fail(what % QStringLiteral(" starts before the step above it"));
        s.steps.push_back(step);
    }
    if (in.ok())
        s.collectives = collectivesFrom(in, in.member(root, QStringLiteral("collectives"), {}));
    const QJsonArray busy =
        in.array(in.member(root, QStringLiteral("busy_ns"), {}), QStringLiteral("busy_ns"));
    if (in.ok() && busy.size() != kUtilisationBuckets && !busy.isEmpty())
        in.fail(QStringLiteral("busy_ns does not have %1 buckets").arg(kUtilisationBuckets));
    for (qsizetype i = 0; i < busy.size() && in.ok(); ++i)
        s.busy.push_back(in.integer(busy[i], QStringLiteral("busy_ns"), 0, s.gpuSpan.duration()));
    const QJsonArray warnings =
        in.array(in.member(root, QStringLiteral("warnings"), {}), QStringLiteral("warnings"));
    for (const auto& w : warnings) {
        if (!w.isString())
            in.fail(QStringLiteral("warnings holds something other than sentences"));
        s.warnings << w.toString();
    }
    if (!in.ok()) {
        *error = QStringLiteral("is a damaged rank summary: ") % in.error;
        return std::nullopt;
    }
    return s;
}

bool writeRankSummaryFile(const QString& path, const RankSummary& s, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = path % QStringLiteral(" cannot be written: ") % f.errorString();
        return false;
    }
    f.write(rankSummaryToJson(s));
    if (!f.commit()) {
        *error = path % QStringLiteral(" cannot be written: ") % f.errorString();
        return false;
    }
    return true;
}

std::optional<RankSummary> readRankSummaryFile(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path % QStringLiteral(" cannot be read: ") % f.errorString();
        return std::nullopt;
    }
    if (f.size() > kMaxRankSummaryBytes) {
        *error = path % QStringLiteral(" is not a rank summary: it is larger than %1 MB")
                            .arg(kMaxRankSummaryBytes >> 20);
        return std::nullopt;
    }
    QString why;
    auto s = rankSummaryFromJson(f.readAll(), &why);
    if (!s)
        *error = path % u' ' % why % u'.';
    return s;
}

} // namespace strobe
