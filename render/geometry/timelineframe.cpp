// SPDX-License-Identifier: MIT
#include "render/geometry/timelineframe.h"

#include "model/analysis/eventsearch.h"
#include "model/trace.h"
#include "render/geometry/countercolumns.h"
#include "render/geometry/lanelayout.h"

#include <QThread>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace strobe {

TimelineFrame::TimelineFrame(TimelineGeometry& geometry, const ViewFrame& view, Options options)
    : m_geometry(&geometry)
    , m_view(view) {
    Q_ASSERT(!geometry.m_frameAlive); // one frame of a geometry at a time
    build(geometry, options);
    geometry.m_frameAlive = true;
}

TimelineFrame::~TimelineFrame() {
    if (m_pipeline) {
        // A row claimed for this frame and left unfolded would read as empty in later queries:
        // the jobs not done yet are done now; if one failed, the claimed rows are dropped.
        try {
            m_pipeline->finish();
        } catch (...) {
            m_geometry->clearRows();
        }
        m_pipeline.reset();
    }
    m_geometry->m_frameAlive = false;
}

void TimelineFrame::build(TimelineGeometry& geometry, const Options& options) {
    m_trace = geometry.trace();
    m_lod = geometry.lod();
    m_traceGeneration = geometry.traceGeneration();
    const LaneLayout* layout = m_view.layout;
    if (!m_trace || !layout)
        return;
    const ViewFrame& f = m_view;
    m_pinnedHeight = layout->pinnedHeight();
    m_rowsBottom = std::max(m_pinnedHeight, m_pinnedHeight + layout->contentHeight() - f.scrollY);
    const int deviceCols = std::max(1, int(std::ceil(f.width * f.dpr)));

    // Every visible row in painting order (rows above `clipTop` are under the pinned ones);
    // the lane rows to fold are claimed together below.
    std::vector<TimelineGeometry::RowKey> foldKeys;
    const EventSearchResult* search =
        options.search && options.search->trace() == m_trace ? options.search : nullptr;
    auto collect = [&](const std::vector<LayoutRow>& rows, int clipTop) {
        for (const LayoutRow& r : rows) {
            const int y = layout->viewY(r, f.scrollY);
            if (y + r.height <= clipTop || y >= f.height)
                continue;
            FrameRow& row = m_rows.emplace_back();
            row.layout = &r;
            row.y = y;
            switch (r.kind) {
            case LayoutRowKind::LaneRow:
                if (options.summaries && m_lod)
                    row.summaryLevel = geometry.summaryLevel(f, r.lane, r.row);
                if (!row.summaryLevel)
                    foldKeys.push_back({r.lane, r.row});
                if (const LaneMatches* m = search ? search->matchesOf(r.lane) : nullptr)
                    row.searchMarks = searchMarkSpans(m_trace->lane(r.lane).rowView(r.row),
                                                      m->rowPositions(r.row), f);
                break;
            case LayoutRowKind::ProjectedNvtx:
                row.projected = geometry.projectedNvtx(r.deviceId);
                if (row.projected)
                    row.items = &geometry.projectedItems(f, r.deviceId, r.row);
                break;
            case LayoutRowKind::Utilization:
                row.utilization = geometry.utilization(r.deviceId);
                if (row.utilization) {
                    const double nsPerCol = f.nsPerPx / f.dpr;
                    row.kernelBusy =
                        row.utilization->kernels.busyFractions(f.view.start, nsPerCol, deviceCols);
                    row.copyBusy =
                        row.utilization->copies.busyFractions(f.view.start, nsPerCol, deviceCols);
                    // A partial picture's gaps are mostly rows not read yet: no idle marks,
                    // which would say the GPU sat idle there.
                    if (m_trace->metadata().gpuSampleStride <= 1)
                        row.idleSpans = geometry.idleMarkSpans(f, r.deviceId);
                }
                break;
            case LayoutRowKind::MemoryCounter: {
                row.memory = m_trace->gpuMemoryOf(r.deviceId);
                const GpuMemorySample* peak = row.memory ? row.memory->peak() : nullptr;
                if (peak && peak->allocated != 0)
                    row.counter = counterColumns(*row.memory, f.view.start, f.nsPerPx,
                                                 std::max(1, int(std::ceil(f.width))));
                break;
            }
            case LayoutRowKind::GroupHeader:
                break;
            }
        }
    };
    collect(layout->rows(), m_pinnedHeight);
    m_pinnedBegin = m_rows.size();
    collect(layout->pinnedRows(), 0);

    // The jobs, in painting order: each summarised row, and each row claimed now (the others
    // were folded by an earlier frame, or are a row met twice, whose job is its first one's).
    const std::vector<TimelineGeometry::PendingRow> folds = geometry.claimRows(f, foldKeys);
    std::size_t summaries = 0;
    for (const FrameRow& r : m_rows)
        summaries += r.summaryLevel.has_value();
    if (geometry.m_summaryColumns.size() < summaries)
        geometry.m_summaryColumns.resize(summaries);
    std::unordered_map<const std::vector<DrawItem>*, std::size_t> jobOfEntry;
    std::size_t nextFold = 0, nextColumns = 0; // claimRows keeps the order of the rows given
    std::uint64_t foldEvents = 0;
    for (FrameRow& row : m_rows) {
        const LayoutRow& r = *row.layout;
        if (r.kind != LayoutRowKind::LaneRow)
            continue;
        if (row.summaryLevel) {
            std::vector<SummaryColumn>* columns = &geometry.m_summaryColumns[nextColumns++];
            row.columns = columns;
            row.job = m_jobs.size();
            m_jobs.push_back(Job{&row, {}, columns});
        } else if (nextFold < folds.size() && folds[nextFold].lane == &m_trace->lane(r.lane) &&
                   folds[nextFold].row == r.row) {
            const TimelineGeometry::PendingRow& fold = folds[nextFold++];
            row.items = fold.items;
            row.job = m_jobs.size();
            jobOfEntry.emplace(fold.items, m_jobs.size());
            foldEvents += fold.visible;
            m_jobs.push_back(Job{&row, fold, nullptr});
        } else {
            row.items = &geometry.rowItems(f, r.lane, r.row); // folded already, or being
            if (const auto it = jobOfEntry.find(row.items); it != jobOfEntry.end())
                row.job = it->second;
        }
    }
    Q_ASSERT(nextFold == folds.size());

    // A summarised row's columns, or folding a row of a few thousand visible events, is a good
    // part of a frame at full or middle zoom: the rows are independent, so idle cores take them
    // in painting order while the painting thread paints the rows they finished (a helper takes
    // a few hundred microseconds to wake on a virtual machine, so small frames keep it all on
    // the painting thread).
    const bool worthHelpers = summaries >= 8 || foldEvents >= kShareFoldEvents;
    const int helpers = options.helpers.value_or(
        worthHelpers ? std::clamp(QThread::idealThreadCount() - 1, 0, 3) : 0);
    m_pipeline =
        std::make_unique<Pipeline>(m_jobs.size(), helpers, [this](std::size_t k) { runJob(k); });
}

void TimelineFrame::runJob(std::size_t k) const {
    const Job& job = m_jobs[k];
    if (job.fold.items)
        return TimelineGeometry::fillRow(m_view, job.fold);
    const LayoutRow& r = *job.row->layout;
    const int cols = std::max(1, int(std::ceil(m_view.width * m_view.dpr)));
    m_lod->rowSummary(r.lane, r.row)
        ->columns(m_trace->lane(r.lane).rowView(r.row), m_view.view.start,
                  m_view.nsPerPx / m_view.dpr, cols, *job.row->summaryLevel, *job.columns);
}

std::vector<PixelSpan> TimelineFrame::searchMarkSpans(const RowView& row,
                                                      std::span<const std::uint32_t> positions,
                                                      const ViewFrame& view) {
    std::vector<PixelSpan> marks;
    if (positions.empty() || row.size() == 0 || view.width <= 0)
        return marks;
    // The matches among the row's visible events.
    const std::uint32_t kLo = row.firstEndingAfter(view.view.start);
    const std::uint32_t kHi = row.firstStartingAtOrAfter(view.view.end);
    auto j = std::lower_bound(positions.begin(), positions.end(), kLo);
    const auto jEnd = std::lower_bound(j, positions.end(), kHi);
    const double left = -1.0, right = view.width + 1.0;
    while (j < jEnd) {
        const std::uint32_t k = *j;
        const TimeNs s = row.start(k);
        double x0 = view.map.toPx(s), x1 = view.map.toPx(effectiveEnd(s, row.end(k)));
        if (x1 - x0 < kSearchMarkMinPx) {
            const double c = (x0 + x1) / 2;
            x0 = c - kSearchMarkMinPx / 2, x1 = c + kSearchMarkMinPx / 2;
        }
        x0 = std::clamp(view.snap(x0), left, right);
        x1 = std::clamp(view.snap(x1), left, right);
        if (!marks.empty() && x0 <= marks.back().x1)
            marks.back().x1 = std::max(marks.back().x1, x1);
        else
            marks.push_back({x0, std::max(x1, x0 + 1.0 / view.dpr)});
        // The matches that start under this mark add nothing but, for the last of them, its
        // end (a match may reach past the mark): skip to that one.
        const std::uint32_t kNext = row.firstStartingAtOrAfter(view.map.toTime(marks.back().x1));
        const auto jNext = std::lower_bound(j + 1, jEnd, kNext);
        j = jNext - 1 > j ? jNext - 1 : j + 1;
    }
    return marks;
}

const FrameRow& TimelineFrame::await(const FrameRow& row) const {
    if (row.job)
        m_pipeline->await(*row.job);
    return row;
}

void TimelineFrame::finish() const {
    if (m_pipeline)
        m_pipeline->finish();
}

} // namespace strobe
