// SPDX-License-Identifier: MIT
#include "app/cli/render/renderinputs.h"

#include "model/trace.h"
#include "render/geometry/lanelayout.h"

#include <QRegularExpression>
#include <QStringBuilder>
#include <algorithm>
#include <tuple>
#include <vector>

namespace strobe::cli {

QString selectLanes(const Trace& trace, const QString& spec, const QString& file,
                    LaneLayout& layout) {
    if (spec == QLatin1String("all"))
        return {};
    const bool gpu = spec == QLatin1String("gpu"), cpu = spec == QLatin1String("cpu");
    const QRegularExpression re(gpu || cpu ? QString() : spec);
    if (!gpu && !cpu && !re.isValid())
        return QStringLiteral("--lanes '") % spec %
               QStringLiteral("' is neither all, gpu, cpu nor a valid regular expression (") %
               re.errorString() % QStringLiteral(").");
    int kept = 0;
    for (std::uint32_t lane = 0; lane < trace.lanes().size(); ++lane) {
        const bool keep = gpu   ? isGpuLane(trace.lane(lane).kind())
                          : cpu ? !isGpuLane(trace.lane(lane).kind())
                                : re.match(trace.laneLabel(lane)).hasMatch();
        layout.setLaneHidden(lane, !keep);
        kept += keep;
    }
    layout.setHideEmptyGroups(true);
    if (kept == 0)
        return QStringLiteral("--lanes '") % spec % QStringLiteral("' matches none of the ") %
               QString::number(trace.lanes().size()) % QStringLiteral(" lanes of ") % file % u'.';
    return {};
}

std::optional<RangeSpec> parseRangeSpec(const QString& text) {
    if (text.isEmpty())
        return std::nullopt;
    RangeSpec spec{text, {}, 1};
    if (const qsizetype hash = text.lastIndexOf(u'#'); hash > 0) {
        bool ok = false;
        const int k = text.mid(hash + 1).toInt(&ok);
        if (ok && k >= 1) {
            spec.name = text.left(hash);
            spec.instance = k;
        }
    }
    return spec;
}

namespace {

// Every range named `name` on the NVTX lanes: (start, lane, index), sorted.
std::vector<std::tuple<TimeNs, std::uint32_t, std::uint32_t>> rangesNamed(const Trace& trace,
                                                                          const QString& name) {
    const QByteArray utf8 = name.toUtf8();
    const std::string_view wanted(utf8.constData(), std::size_t(utf8.size()));
    std::vector<std::tuple<TimeNs, std::uint32_t, std::uint32_t>> found;
    for (std::uint32_t lane = 0; lane < trace.lanes().size(); ++lane) {
        const Lane& l = trace.lane(lane);
        if (l.kind() != LaneKind::Nvtx && l.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            if (trace.strings().view(l.nameId(i)) == wanted)
                found.emplace_back(l.start(i), lane, i);
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace

FoundRange findNamedRange(const Trace& trace, const RangeSpec& spec, const QString& file) {
    int instance = 1;
    auto found = rangesNamed(trace, spec.text);
    if (found.empty() && !spec.name.isEmpty()) {
        found = rangesNamed(trace, spec.name);
        instance = spec.instance;
        if (!found.empty() && std::size_t(instance) > found.size())
            return {std::nullopt, file % QStringLiteral(" has ") % QString::number(found.size()) %
                                      QStringLiteral(" NVTX range(s) named '") % spec.name %
                                      QStringLiteral("', not ") % QString::number(instance) % u'.'};
    }
    if (found.empty())
        return {std::nullopt, QStringLiteral("no NVTX range is named '") % spec.text %
                                  QStringLiteral("' in ") % file % u'.'};
    const auto [start, lane, index] = found[std::size_t(instance - 1)];
    return {TimeRange{start, trace.lane(lane).end(index)}, {}};
}

TimeRange withMargin(TimeRange range, int percent) {
    const TimeNs margin = range.duration() * percent / 100;
    return {range.start - margin, std::max(range.end + margin, range.start - margin + 1)};
}

} // namespace strobe::cli
