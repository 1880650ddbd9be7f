// SPDX-License-Identifier: MIT
#include "model/job/summaryjson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringBuilder>
#include <array>
#include <cmath>
#include <limits>
#include <simdjson.h>
#include <string_view>

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

// The reading half: simdjson's DOM over the file's bytes (Debian's libsimdjson, as the Kineto
// reader uses), then every field checked. QJsonDocument took 4.5 s for 1,024 summaries of
// 1M-event ranks.
using simdjson::dom::element;
using simdjson::dom::element_type;

// A member or an element that may be absent.
using Value = std::optional<element>;

// A member's key, for a sentence.
QString keyText(std::string_view key) {
    return QString::fromUtf8(key.data(), qsizetype(key.size()));
}

// An integer in [lo, hi]: a JSON integer, or an integral double (1.0, 1e3) as QJsonValue's
// toInteger read them when QJsonDocument read these files; nullopt for anything else.
std::optional<std::int64_t> exact(const Value& v, std::int64_t lo, std::int64_t hi) {
    if (!v)
        return std::nullopt;
    std::int64_t i = 0;
    switch (v->type()) {
    case element_type::INT64:
        i = v->get_int64().value_unsafe();
        break;
    case element_type::DOUBLE: {
        const double d = v->get_double().value_unsafe();
        if (d != std::floor(d) || d < -0x1p63 || d >= 0x1p63)
            return std::nullopt;
        i = std::int64_t(d);
        break;
    }
    default: // UINT64 is past int64's range, which bounds every field
        return std::nullopt;
    }
    if (i < lo || i > hi)
        return std::nullopt;
    return i;
}

bool isNull(const Value& v) {
    return v && v->is_null();
}

std::optional<QString> textOf(const Value& v) {
    std::string_view s;
    if (!v || v->get_string().get(s) != simdjson::SUCCESS)
        return std::nullopt;
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// An object's member; with a key given twice, the first.
Value memberOf(const std::optional<simdjson::dom::object>& o, std::string_view key) {
    element e;
    if (!o || o->at_key(key).get(e) != simdjson::SUCCESS)
        return std::nullopt;
    return e;
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
    using Object = std::optional<simdjson::dom::object>;

    Value member(const Object& o, std::string_view key, const QString& where) {
        Value v = memberOf(o, key);
        if (!v)
            fail(where % keyText(key) % QStringLiteral(" is missing"));
        return v;
    }
    std::int64_t integer(const Value& v, const QString& what, std::int64_t lo, std::int64_t hi) {
        if (const auto a = exact(v, lo, hi))
            return *a;
        fail(what % QStringLiteral(" is not an integer in range"));
        return lo < 0 && hi > 0 ? 0 : lo;
    }
    TimeNs duration(const Object& o, std::string_view key, const QString& where) {
        return integer(member(o, key, where), where % keyText(key), 0, kMaxTime);
    }
    std::optional<std::uint32_t> optionalU32(const Object& o, std::string_view key) {
        const Value v = member(o, key, {});
        if (isNull(v))
            return std::nullopt;
        return std::uint32_t(integer(v, keyText(key), 0, 0xFFFFFFFF));
    }
    QString string(const Object& o, std::string_view key, const QString& where) {
        const Value v = member(o, key, where);
        auto s = textOf(v);
        if (!s && v)
            fail(where % keyText(key) % QStringLiteral(" is not a string"));
        return s.value_or(QString());
    }
    Object object(const Value& v, const QString& what) {
        simdjson::dom::object o;
        if (!v || v->get_object().get(o) != simdjson::SUCCESS) {
            fail(what % QStringLiteral(" is not an object"));
            return std::nullopt;
        }
        return o;
    }
    std::optional<simdjson::dom::array> array(const Value& v, const QString& what) {
        simdjson::dom::array a;
        if (!v || v->get_array().get(a) != simdjson::SUCCESS) {
            fail(what % QStringLiteral(" is not an array"));
            return std::nullopt;
        }
        return a;
    }
    TimeRange range(const Value& v, const QString& what) {
        const auto a = array(v, what);
        if (!a)
            return {};
        if (a->size() != 2) {
            fail(what % QStringLiteral(" is not a [start, end] pair"));
            return {};
        }
        const TimeRange r{integer(element((*a).at(0).value_unsafe()), what, kMinTime, kMaxTime),
                          integer(element((*a).at(1).value_unsafe()), what, kMinTime, kMaxTime)};
        if (r.end < r.start)
            fail(what % QStringLiteral(" ends before it starts"));
        return r;
    }
    RankBreakdown breakdown(const Value& v, const QString& what) {
        const Object o = object(v, what);
        const QString w = what % u'.';
        RankBreakdown b;
        b.compute = duration(o, "compute_ns", w);
        b.communication = duration(o, "communication_ns", w);
        b.exposedCommunication = duration(o, "exposed_communication_ns", w);
        b.memory = duration(o, "memory_ns", w);
        b.idle = duration(o, "idle_ns", w);
        b.span = duration(o, "span_ns", w);
        if (ok() && !wholeHoldsItsParts(b))
            fail(what % QStringLiteral(" has parts larger than their whole"));
        return b;
    }
    static bool wholeHoldsItsParts(const RankBreakdown& b) {
        return !(b.exposedCommunication > b.communication || b.idle > b.span ||
                 b.compute > b.span || b.communication > b.span || b.memory > b.span);
    }
};

// A step read without naming anything (a rank has hundreds): true when every check of the
// named path in rankSummaryFromJson passes, else false and that path says what is wrong.
bool wellFormedStep(element v, RankStep& step) {
    simdjson::dom::object o;
    if (v.get_object().get(o) != simdjson::SUCCESS)
        return false;
    const Checked::Object obj = o;
    const auto number = exact(memberOf(obj, "step"), 0, std::numeric_limits<qint64>::max());
    simdjson::dom::array host;
    element hostValue, breakdownValue;
    if (!number || o.at_key("host").get(hostValue) != simdjson::SUCCESS ||
        hostValue.get_array().get(host) != simdjson::SUCCESS || host.size() != 2 ||
        o.at_key("breakdown").get(breakdownValue) != simdjson::SUCCESS)
        return false;
    const auto start = exact(element(host.at(0).value_unsafe()), kMinTime, kMaxTime);
    const auto end = exact(element(host.at(1).value_unsafe()), kMinTime, kMaxTime);
    simdjson::dom::object b;
    if (!start || !end || *end < *start || breakdownValue.get_object().get(b) != simdjson::SUCCESS)
        return false;
    const Checked::Object bo = b;
    std::optional<std::int64_t> parts[6];
    static constexpr std::string_view kKeys[] = {
        "compute_ns", "communication_ns", "exposed_communication_ns",
        "memory_ns",  "idle_ns",          "span_ns"};
    for (std::size_t p = 0; p < 6; ++p) {
        parts[p] = exact(memberOf(bo, kKeys[p]), 0, kMaxTime);
        if (!parts[p])
            return false;
    }
    step.number = std::uint64_t(*number);
    step.host = {*start, *end};
    step.breakdown = {*parts[0], *parts[1], *parts[2], *parts[3], *parts[4], *parts[5]};
    return Checked::wholeHoldsItsParts(step.breakdown);
}

// Collectives are columns, not an object each: a rank has up to hundreds of thousands of them.
// Kinds and process groups are listed once (RankSummary's lists) and referenced by index.
QJsonObject collectivesJson(const RankSummary& s) {
    QJsonArray kind, group, stream, order, start, end, bytes;
    for (const RankCollective& c : s.collectives) {
        kind.append(qint64(c.kind));
        group.append(c.processGroup ? QJsonValue(qint64(*c.processGroup)) : QJsonValue());
        stream.append(qint64(c.streamOrdinal));
        order.append(qint64(c.order));
        start.append(qint64(c.gpu.start));
        end.append(qint64(c.gpu.end));
        bytes.append(c.bytes ? QJsonValue(qint64(*c.bytes)) : QJsonValue());
    }
    return {{QStringLiteral("kinds"), QJsonArray::fromStringList(s.collectiveKinds)},
            {QStringLiteral("process_groups"), QJsonArray::fromStringList(s.processGroups)},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("process_group"), group},
            {QStringLiteral("stream"), stream},
            {QStringLiteral("order"), order},
            {QStringLiteral("start_ns"), start},
            {QStringLiteral("end_ns"), end},
            {QStringLiteral("bytes"), bytes}};
}

// The collectives' columns, read in step: a rank has hundreds of thousands of calls, so a row's
// name is made only for a sentence.
void collectivesFrom(Checked& in, const Value& v, RankSummary& s) {
    const QString what = QStringLiteral("collectives");
    const Checked::Object o = in.object(v, what);
    const auto names = [&](std::string_view key) {
        QStringList out;
        const QString where = what % u'.' % keyText(key);
        const auto a = in.array(in.member(o, key, what % u'.'), where);
        if (!a)
            return out;
        for (const element name : *a) {
            const QString text = textOf(name).value_or(QString());
            if (text.isEmpty())
                in.fail(where % QStringLiteral(" holds a non-name"));
            out << text;
        }
        return out;
    };
    s.collectiveKinds = names("kinds");
    s.processGroups = names("process_groups");
    enum Column : std::uint8_t { Kind, Group, Stream, Order, Start, End, Bytes, kColumnCount };
    static constexpr std::array<std::string_view, kColumnCount> kKeys = {
        "kind", "process_group", "stream", "order", "start_ns", "end_ns", "bytes"};
    std::array<simdjson::dom::array, kColumnCount> columns;
    for (std::size_t c = 0; c < kColumnCount; ++c) {
        if (const auto a =
                in.array(in.member(o, kKeys[c], what % u'.'), what % u'.' % keyText(kKeys[c])))
            columns[c] = *a;
    }
    if (!in.ok())
        return;
    const std::size_t n = columns[Kind].size();
    for (const simdjson::dom::array& c : columns) {
        if (c.size() != n)
            in.fail(what % QStringLiteral("' columns differ in length"));
    }
    if (!in.ok())
        return;
    std::array<simdjson::dom::array::iterator, kColumnCount> next;
    for (std::size_t c = 0; c < kColumnCount; ++c)
        next[c] = columns[c].begin();
    s.collectives.reserve(n);
    const auto kinds = std::int64_t(s.collectiveKinds.size());
    const auto groups = std::int64_t(s.processGroups.size());
    constexpr std::int64_t u32 = 0xFFFFFFFF;
    std::array<element, kColumnCount> cell;
    for (std::size_t i = 0; i < n && in.ok(); ++i) {
        for (std::size_t c = 0; c < kColumnCount; ++c) {
            cell[c] = *next[c];
            ++next[c];
        }
        const auto field = [&](Column c, std::int64_t lo, std::int64_t hi) {
            if (const auto x = exact(cell[c], lo, hi))
                return *x;
            in.fail(what % u'[' % QString::number(i) % QStringLiteral("].") % keyText(kKeys[c]) %
                    QStringLiteral(" is not an integer in range"));
            return std::int64_t(0);
        };
        RankCollective call;
        // An empty list makes the range [0, -1]: every index fails.
        call.kind = std::uint32_t(field(Kind, 0, kinds - 1));
        if (!cell[Group].is_null())
            call.processGroup = std::uint32_t(field(Group, 0, groups - 1));
        call.streamOrdinal = std::uint32_t(field(Stream, 0, u32));
        call.order = std::uint32_t(field(Order, 0, u32));
        call.gpu = {field(Start, kMinTime, kMaxTime), field(End, kMinTime, kMaxTime)};
        if (in.ok() && call.gpu.end < call.gpu.start)
            in.fail(what % u'[' % QString::number(i) % QStringLiteral("] ends before it starts"));
        if (!cell[Bytes].is_null())
            call.bytes = std::uint64_t(field(Bytes, 0, std::numeric_limits<qint64>::max()));
        s.collectives.push_back(call);
    }
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
        {QStringLiteral("collectives"), collectivesJson(s)},
        {QStringLiteral("busy_ns"), busy},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(s.warnings)},
    };
    QJsonObject withHost = root;
    if (!s.host.isEmpty()) // only when recorded: summaries without one keep their bytes
        withHost.insert(QStringLiteral("host"), s.host);
    return QJsonDocument(withHost).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<RankSummary> rankSummaryFromJson(const QByteArray& json, QString* error) {
    // One parser per thread, reused: openJob reads a job's summaries one after another on each
    // of its threads. The text is copied into a padded buffer where simdjson needs one.
    thread_local simdjson::dom::parser parser;
    element doc;
    simdjson::dom::object rootObject;
    const bool parsed = parser.parse(json.constData(), std::size_t(json.size()), true).get(doc) ==
                            simdjson::SUCCESS &&
                        doc.get_object().get(rootObject) == simdjson::SUCCESS;
    if (!parsed) {
        *error = QStringLiteral("is not a rank summary: it is not a JSON object");
        return std::nullopt;
    }
    const Checked::Object root = rootObject;
    if (textOf(memberOf(root, "format")) != QLatin1String(kRankSummaryFormat)) {
        *error = QStringLiteral("is not a rank summary: its format is not \"") %
                 QLatin1String(kRankSummaryFormat) % u'"';
        return std::nullopt;
    }
    const Value version = memberOf(root, "version");
    if (exact(version, kRankSummaryVersion, kRankSummaryVersion) != kRankSummaryVersion) {
        double v = 0;
        const bool number = version && version->get_double().get(v) == simdjson::SUCCESS;
        *error = QStringLiteral("is a rank summary of version %1; this Strobe reads version %2 "
                                "(summarize the trace again)")
                     .arg(number ? QString::number(v) : QStringLiteral("unknown"))
                     .arg(kRankSummaryVersion);
        return std::nullopt;
    }
    Checked in;
    RankSummary s;
    s.file = in.string(root, "file", {});
    s.pid = in.optionalU32(root, "pid");
    s.rank = std::uint32_t(
        in.integer(in.member(root, "rank", {}), QStringLiteral("rank"), 0, 0xFFFFFFFF));
    const auto source = rankSourceFromKey(in.string(root, "rank_source", {}));
    if (!source)
        in.fail(QStringLiteral("rank_source is not recorded, file-name or order"));
    s.rankSource = source.value_or(RankSource::Order);
    s.worldSize = in.optionalU32(root, "world_size");
    s.backend = in.string(root, "backend", {});
    s.format = in.string(root, "trace_format", {});
    s.deviceId = in.optionalU32(root, "device_id");
    s.gpu = in.string(root, "gpu", {});
    if (memberOf(root, "host")) // optional: older files lack it
        s.host = in.string(root, "host", {});
    if (const Value v = in.member(root, "clock_origin_ns", {}); !isNull(v))
        s.clockOriginNs =
            in.integer(v, QStringLiteral("clock_origin_ns"), std::numeric_limits<qint64>::min(),
                       std::numeric_limits<qint64>::max());
    s.gpuSpan = in.range(in.member(root, "gpu_span", {}), QStringLiteral("gpu_span"));
    s.whole = in.breakdown(in.member(root, "whole", {}), QStringLiteral("whole"));
    if (const Value v = in.member(root, "hta_window", {}); !isNull(v))
        s.htaWindow = in.breakdown(v, QStringLiteral("hta_window"));
    if (const auto steps = in.array(in.member(root, "steps", {}), QStringLiteral("steps"))) {
        s.steps.reserve(steps->size());
        std::size_t i = 0;
        for (const element v : *steps) {
            if (!in.ok())
                break;
            RankStep step;
            if (!wellFormedStep(v, step)) { // the checks again, naming what is wrong
                const QString what = QStringLiteral("steps[%1]").arg(i);
                const Checked::Object o = in.object(v, what);
                step.number = std::uint64_t(in.integer(in.member(o, "step", what % u'.'), what, 0,
                                                       std::numeric_limits<qint64>::max()));
                step.host = in.range(in.member(o, "host", what % u'.'), what);
                step.breakdown = in.breakdown(in.member(o, "breakdown", what % u'.'), what);
            }
            if (!s.steps.empty() && step.host.start < s.steps.back().host.start)
                in.fail(QStringLiteral("steps[%1]").arg(i) %
                        QStringLiteral(" starts before the step above it"));
            s.steps.push_back(step);
            ++i;
        }
    }
    if (in.ok())
        collectivesFrom(in, in.member(root, "collectives", {}), s);
    if (const auto busy = in.array(in.member(root, "busy_ns", {}), QStringLiteral("busy_ns"))) {
        if (in.ok() && busy->size() != std::size_t(kUtilisationBuckets) && busy->size() != 0)
            in.fail(QStringLiteral("busy_ns does not have %1 buckets").arg(kUtilisationBuckets));
        for (const element b : *busy) {
            if (!in.ok())
                break;
            s.busy.push_back(in.integer(b, QStringLiteral("busy_ns"), 0, s.gpuSpan.duration()));
        }
    }
    if (const auto warnings =
            in.array(in.member(root, "warnings", {}), QStringLiteral("warnings"))) {
        for (const element w : *warnings) {
            const auto text = textOf(w);
            if (!text)
                in.fail(QStringLiteral("warnings holds something other than sentences"));
            s.warnings << text.value_or(QString());
        }
    }
    if (parser.capacity() > (std::size_t(64) << 20))
        parser = simdjson::dom::parser(); // an unusually large summary's memory is not kept
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
