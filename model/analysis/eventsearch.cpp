// SPDX-License-Identifier: MIT
#include "model/analysis/eventsearch.h"

#include "model/cudaapi.h"
#include "model/runonthreads.h"
#include "model/trace.h"

#include <QRegularExpression>
#include <QThread>
#include <algorithm>
#include <string_view>
#include <utility>

namespace strobe {

namespace {

constexpr std::uint32_t kCancelCheckEvents = 65'536;
// Below this many events in all the lanes are scanned on the calling thread alone; below this
// many strings the strings are matched on it alone, in chunks of kStringChunk otherwise.
constexpr std::uint64_t kThreadedScanEvents = 1'000'000;
constexpr std::size_t kThreadedStrings = 65'536;
constexpr std::size_t kStringChunk = 8'192;

int scanThreads() {
    return std::clamp(QThread::idealThreadCount(), 1, 4);
}

char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

bool isAscii(std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (static_cast<unsigned char>(c) & 0x80) == 0; });
}

// `hay` contains `lowerNeedle` (lower-case ASCII) ignoring ASCII case.
bool containsFolded(std::string_view hay, std::string_view lowerNeedle) {
    const std::size_t n = lowerNeedle.size();
    if (hay.size() < n)
        return false;
    const char c0 = lowerNeedle[0];
    for (std::size_t i = 0; i + n <= hay.size(); ++i) {
        if (asciiLower(hay[i]) != c0)
            continue;
        std::size_t j = 1;
        while (j < n && asciiLower(hay[i + j]) == lowerNeedle[j])
            ++j;
        if (j == n)
            return true;
    }
    return false;
}

// Matches one name (a UTF-8 string of the trace) against the query, as QString::contains or
// QRegularExpression would on the decoded text; plain ASCII text is compared on the bytes.
class NameMatcher {
public:
    explicit NameMatcher(const EventSearchQuery& q)
        : m_query(q) {
        if (q.regex) {
            m_regex.setPattern(q.text);
            m_regex.setPatternOptions(q.caseSensitive ? QRegularExpression::NoPatternOption
                                                      : QRegularExpression::CaseInsensitiveOption);
            if (!m_regex.isValid())
                m_error =
                    EventSearchPatternError{m_regex.errorString(), m_regex.patternErrorOffset()};
            return;
        }
        m_needle = q.text.toUtf8();
        m_asciiNeedle =
            isAscii(std::string_view(m_needle.constData(), std::size_t(m_needle.size())));
        if (m_asciiNeedle && !q.caseSensitive)
            m_needle = m_needle.toLower();
    }
    const std::optional<EventSearchPatternError>& error() const { return m_error; }

    bool matches(std::string_view name) const {
        if (m_query.regex) {
            const QString s = QString::fromUtf8(name.data(), qsizetype(name.size()));
            if (m_regex.match(s).hasMatch())
                return true;
            // API calls are shown without their version suffix: "^cudaMalloc$" finds
            // cudaMalloc_v3020 as it reads on the timeline.
            const QString shown = cudaapi::displayName(s);
            return shown.size() != s.size() && m_regex.match(shown).hasMatch();
        }
        const std::string_view needle(m_needle.constData(), std::size_t(m_needle.size()));
        if (m_query.caseSensitive)
            return name.find(needle) != std::string_view::npos;
        if (m_asciiNeedle && isAscii(name))
            return containsFolded(name, needle);
        return QString::fromUtf8(name.data(), qsizetype(name.size()))
            .contains(m_query.text, Qt::CaseInsensitive);
    }

private:
    const EventSearchQuery& m_query;
    QRegularExpression m_regex;
    QByteArray m_needle;
    bool m_asciiNeedle = true;
    std::optional<EventSearchPatternError> m_error;
};

// Position k of lane index `i` in row view `rv` (whose lane indices ascend).
std::uint32_t rowPositionOf(const RowView& rv, std::uint32_t i) {
    std::uint32_t lo = 0, hi = rv.size();
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (rv.laneIndex(mid) < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Fills m.rows for a lane of several rows from m.events.
void placeInRows(const Lane& l, LaneMatches& m) {
    const std::uint16_t rows = l.rowCount();
    m.rows.assign(rows, {});
    // Few matches: find each one's row; many: walk every row once against a mark per event.
    if (std::uint64_t(m.events.size()) * rows * 32 < l.size()) {
        for (std::uint32_t i : m.events) {
            const std::uint16_t r = l.row(i);
            m.rows[r].push_back(rowPositionOf(l.rowView(r), i));
        }
        for (auto& positions : m.rows)
            std::sort(positions.begin(), positions.end());
        return;
    }
    std::vector<bool> hit(l.size(), false);
    for (std::uint32_t i : m.events)
        hit[i] = true;
    for (std::uint16_t r = 0; r < rows; ++r) {
        const RowView rv = l.rowView(r);
        for (std::uint32_t k = 0; k < rv.size(); ++k) {
            if (hit[rv.laneIndex(k)])
                m.rows[r].push_back(k);
        }
    }
}

} // namespace

std::span<const std::uint32_t> LaneMatches::rowPositions(std::uint16_t row) const {
    if (rows.empty())
        return row == 0 ? std::span<const std::uint32_t>(events) : std::span<const std::uint32_t>();
    return row < rows.size() ? std::span<const std::uint32_t>(rows[row])
                             : std::span<const std::uint32_t>();
}

EventSearchResult searchEvents(const Trace& trace, const EventSearchQuery& query,
                               const std::atomic<bool>* cancel) {
    EventSearchResult out;
    out.m_trace = &trace;
    out.m_query = query;
    out.m_laneSlot.assign(trace.lanes().size(), -1);
    if (query.text.isEmpty())
        return out;
    const NameMatcher matcher(out.m_query);
    if (matcher.error()) {
        out.m_error = matcher.error();
        return out;
    }
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };

    // Each distinct string once; a table of many strings (per-call NVTX names) in chunks on
    // several threads, each with a matcher of its own (a regular expression per thread).
    const StringTable& strings = trace.strings();
    std::vector<std::uint8_t> nameMatches(strings.size(), 0);
    std::atomic<std::size_t> nextChunk{0};
    std::atomic<bool> anyName{false}, stopped{false};
    auto matchStrings = [&] {
        const NameMatcher own(out.m_query);
        for (std::size_t c = nextChunk++ * kStringChunk; c < strings.size();
             c = nextChunk++ * kStringChunk) {
            if (cancelled()) {
                stopped = true;
                return;
            }
            bool any = false;
            for (std::size_t id = c; id < std::min(strings.size(), c + kStringChunk); ++id) {
                if (own.matches(strings.view(StringId(id))))
                    nameMatches[id] = 1, any = true;
            }
            if (any)
                anyName = true;
        }
    };
    runOnThreads(strings.size() >= kThreadedStrings ? scanThreads() : 1, matchStrings);
    if (stopped) {
        out.m_cancelled = true;
        return out;
    }
    // A kernel matches by either of its configuration's names.
    const std::vector<KernelConfig>& configs = trace.kernelConfigs();
    std::vector<std::uint8_t> configMatches(configs.size(), 0);
    bool anyConfig = false;
    for (std::size_t c = 0; c < configs.size(); ++c) {
        const KernelConfig& k = configs[c];
        if (nameMatches[k.shortName] || nameMatches[k.demangledName])
            configMatches[c] = 1, anyConfig = true;
    }

    // Then each lane's events by their name id.
    const std::vector<Lane>& lanes = trace.lanes();
    std::vector<LaneMatches> perLane(lanes.size());
    std::atomic<std::size_t> nextLane{0};
    auto scanLanes = [&] {
        for (std::size_t L = nextLane++; L < lanes.size(); L = nextLane++) {
            const Lane& l = lanes[L];
            const bool kernels = l.kind() == LaneKind::Kernels;
            if (kernels ? !anyConfig : !anyName)
                continue;
            LaneMatches& m = perLane[L];
            m.lane = std::uint32_t(L);
            for (std::uint32_t b = 0; b < l.size(); b += kCancelCheckEvents) {
                if (cancelled()) {
                    stopped = true;
                    return;
                }
                const std::uint32_t e = std::min(l.size(), b + kCancelCheckEvents);
                if (kernels) {
                    for (std::uint32_t i = b; i < e; ++i) {
                        if (configMatches[trace.kernelConfigIndex(l.payload(i))])
                            m.events.push_back(i);
                    }
                } else {
                    for (std::uint32_t i = b; i < e; ++i) {
                        if (nameMatches[l.nameId(i)])
                            m.events.push_back(i);
                    }
                }
            }
            if (!m.events.empty() && l.rowCount() > 1)
                placeInRows(l, m);
        }
    };
    std::uint64_t events = 0;
    for (const Lane& l : lanes)
        events += l.size();
    runOnThreads(events >= kThreadedScanEvents ? scanThreads() : 1, scanLanes);
    if (stopped || cancelled()) {
        out.m_cancelled = true;
        return out;
    }
    for (LaneMatches& m : perLane) {
        if (m.events.empty())
            continue;
        out.m_laneSlot[m.lane] = std::int32_t(out.m_lanes.size());
        out.m_count += m.events.size();
        out.m_lanes.push_back(std::move(m));
    }
    return out;
}

EventSearchResult eventSetOf(const Trace& trace, std::span<const EventRef> events) {
    EventSearchResult out;
    out.m_trace = &trace;
    out.m_laneSlot.assign(trace.lanes().size(), -1);
    std::vector<EventRef> kept;
    for (const EventRef e : events)
        if (e.isValid() && e.lane < trace.lanes().size() && e.index < trace.lane(e.lane).size())
            kept.push_back(e);
    std::sort(kept.begin(), kept.end(), [](EventRef a, EventRef b) {
        return std::pair(a.lane, a.index) < std::pair(b.lane, b.index);
    });
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    for (std::size_t i = 0; i < kept.size();) {
        LaneMatches m;
        m.lane = kept[i].lane;
        for (; i < kept.size() && kept[i].lane == m.lane; ++i)
            m.events.push_back(kept[i].index);
        const Lane& l = trace.lane(m.lane);
        if (l.rowCount() > 1)
            placeInRows(l, m);
        out.m_laneSlot[m.lane] = std::int32_t(out.m_lanes.size());
        out.m_count += m.events.size();
        out.m_lanes.push_back(std::move(m));
    }
    return out;
}

const LaneMatches* EventSearchResult::matchesOf(std::uint32_t lane) const {
    if (lane >= m_laneSlot.size() || m_laneSlot[lane] < 0)
        return nullptr;
    return &m_lanes[std::size_t(m_laneSlot[lane])];
}

bool EventSearchResult::contains(EventRef ref) const {
    const LaneMatches* m = matchesOf(ref.lane);
    return m && std::binary_search(m->events.begin(), m->events.end(), ref.index);
}

bool EventSearchResult::before(EventRef a, EventRef b) const {
    const TimeNs sa = m_trace->lane(a.lane).start(a.index);
    const TimeNs sb = m_trace->lane(b.lane).start(b.index);
    if (sa != sb)
        return sa < sb;
    return a.lane != b.lane ? a.lane < b.lane : a.index < b.index;
}

namespace {
// In lane `l`, the first of `events` whose start is > t (strict) or >= t.
std::size_t firstStarting(const Lane& l, const std::vector<std::uint32_t>& events, TimeNs t,
                          bool strict) {
    const auto it = std::partition_point(events.begin(), events.end(), [&](std::uint32_t i) {
        const TimeNs s = l.start(i);
        return strict ? s <= t : s < t;
    });
    return std::size_t(it - events.begin());
}
} // namespace

std::int64_t EventSearchResult::nextIn(const LaneMatches& m, EventRef ref, TimeNs refStart) const {
    const Lane& l = m_trace->lane(m.lane);
    std::size_t k = 0;
    if (m.lane == ref.lane)
        k = std::size_t(std::upper_bound(m.events.begin(), m.events.end(), ref.index) -
                        m.events.begin());
    else
        k = firstStarting(l, m.events, refStart, m.lane < ref.lane);
    return k < m.events.size() ? std::int64_t(k) : -1;
}

std::int64_t EventSearchResult::previousIn(const LaneMatches& m, EventRef ref,
                                           TimeNs refStart) const {
    const Lane& l = m_trace->lane(m.lane);
    std::size_t k = 0; // the number of this lane's matches before ref
    if (m.lane == ref.lane)
        k = std::size_t(std::lower_bound(m.events.begin(), m.events.end(), ref.index) -
                        m.events.begin());
    else
        k = firstStarting(l, m.events, refStart, m.lane < ref.lane);
    return std::int64_t(k) - 1;
}

EventRef EventSearchResult::first() const {
    EventRef best;
    for (const LaneMatches& m : m_lanes) {
        const EventRef c{m.lane, m.events.front()};
        if (!best.isValid() || before(c, best))
            best = c;
    }
    return best;
}

EventRef EventSearchResult::last() const {
    EventRef best;
    for (const LaneMatches& m : m_lanes) {
        const EventRef c{m.lane, m.events.back()};
        if (!best.isValid() || before(best, c))
            best = c;
    }
    return best;
}

EventRef EventSearchResult::next(EventRef ref) const {
    if (!ref.isValid() || ref.lane >= m_laneSlot.size())
        return first();
    const TimeNs s = m_trace->lane(ref.lane).start(ref.index);
    EventRef best;
    for (const LaneMatches& m : m_lanes) {
        const std::int64_t k = nextIn(m, ref, s);
        if (k < 0)
            continue;
        const EventRef c{m.lane, m.events[std::size_t(k)]};
        if (!best.isValid() || before(c, best))
            best = c;
    }
    return best;
}

EventRef EventSearchResult::previous(EventRef ref) const {
    if (!ref.isValid() || ref.lane >= m_laneSlot.size())
        return last();
    const TimeNs s = m_trace->lane(ref.lane).start(ref.index);
    EventRef best;
    for (const LaneMatches& m : m_lanes) {
        const std::int64_t k = previousIn(m, ref, s);
        if (k < 0)
            continue;
        const EventRef c{m.lane, m.events[std::size_t(k)]};
        if (!best.isValid() || before(best, c))
            best = c;
    }
    return best;
}

EventRef EventSearchResult::firstStartingAtOrAfter(TimeNs t) const {
    EventRef best;
    for (const LaneMatches& m : m_lanes) {
        const std::size_t k = firstStarting(m_trace->lane(m.lane), m.events, t, false);
        if (k == m.events.size())
            continue;
        const EventRef c{m.lane, m.events[k]};
        if (!best.isValid() || before(c, best))
            best = c;
    }
    return best;
}

std::size_t EventSearchResult::rankOf(EventRef ref) const {
    if (!contains(ref))
        return 0;
    const TimeNs s = m_trace->lane(ref.lane).start(ref.index);
    std::size_t before = 0;
    for (const LaneMatches& m : m_lanes)
        before += std::size_t(previousIn(m, ref, s) + 1);
    return before + 1;
}

std::vector<EventRef> EventSearchResult::inTimeOrder() const {
    std::vector<EventRef> all;
    all.reserve(m_count);
    for (const LaneMatches& m : m_lanes) {
        for (std::uint32_t i : m.events)
            all.push_back({m.lane, i});
    }
    std::sort(all.begin(), all.end(), [this](EventRef a, EventRef b) { return before(a, b); });
    return all;
}

} // namespace strobe
