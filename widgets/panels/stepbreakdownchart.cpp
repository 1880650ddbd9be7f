// SPDX-License-Identifier: MIT
#include "widgets/panels/stepbreakdownchart.h"

#include "model/reports/overviewtext.h"
#include "model/timeformat.h"
#include "widgets/panels/tablebehaviour.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStringBuilder>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

namespace strobe {

namespace {

constexpr int kCanvasHeight = 240;
constexpr int kMargin = 6;
constexpr int kSwatch = 12;
constexpr int kMaxBarWidth = 56;

StepCategory categoryAt(std::size_t i) {
    return StepCategory(i);
}

// The axis step: 1, 2 or 5 times a power of ten, so that about four steps reach `top`.
double tickStep(double top) {
    const double raw = std::max(top, 1.0) / 4.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    return magnitude * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

// "50 ms", "1.5 s": a tick's time in the unit of the axis's top.
QString tickLabel(double ns, double top) {
    const TimeUnit& u = timeUnitFor(TimeNs(std::llround(top)));
    return QString::number(ns / double(u.ns), 'g', 6) % u' ' % QString::fromUtf16(u.name);
}

} // namespace

// The legend and the bars, painted and hit-tested by the chart.
class StepBarsCanvas : public QWidget {
public:
    explicit StepBarsCanvas(StepBreakdownChart* chart)
        : QWidget(chart)
        , m_chart(chart) {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setFixedHeight(kCanvasHeight);
    }
    QSize sizeHint() const override { return {480, kCanvasHeight}; }
    QSize minimumSizeHint() const override { return {200, kCanvasHeight}; }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        m_chart->paintCanvas(p);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        if (e->button() == Qt::LeftButton) {
            if (const auto bar = m_chart->barAt(e->position().toPoint()))
                m_chart->activateBar(*bar);
        }
        QWidget::mouseReleaseEvent(e);
    }
    bool event(QEvent* e) override {
        if (e->type() != QEvent::ToolTip)
            return QWidget::event(e);
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto bar = m_chart->barAt(help->pos()))
            QToolTip::showText(help->globalPos(), m_chart->barToolTip(*bar), this);
        else
            QToolTip::hideText();
        return true;
    }

private:
    StepBreakdownChart* m_chart;
};

StepBreakdownChart::StepBreakdownChart(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_canvas(new StepBarsCanvas(this))
    , m_table(new QTableWidget(this)) {
    m_title->setTextFormat(Qt::PlainText); // the step range is named by the file
    m_title->setWordWrap(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    setUpTable(m_table);
    m_table->setColumnCount(int(kStepCategoryCount) + 2);
    QStringList headers{tr("Step")};
    for (std::size_t c = 0; c < kStepCategoryCount; ++c)
        headers << categoryLabel(categoryAt(c));
    headers << tr("Total");
    m_table->setHorizontalHeaderLabels(headers);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_canvas);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { activateBar(row); });
    setStepBreakdown({});
}

StepBreakdownChart::~StepBreakdownChart() = default;

QString StepBreakdownChart::categoryLabel(StepCategory c) {
    switch (c) {
    case StepCategory::Kernel:
        return tr("Kernel");
    case StepCategory::Memcpy:
        return tr("Memcpy");
    case StepCategory::Memset:
        return tr("Memset");
    case StepCategory::Communication:
        return tr("Communication");
    case StepCategory::Runtime:
        return tr("Runtime");
    case StepCategory::DataLoader:
        return tr("DataLoader");
    case StepCategory::CpuExec:
        return tr("CPU Exec");
    case StepCategory::Other:
        break;
    }
    return tr("Other");
}

QColor StepBreakdownChart::categoryColor(StepCategory c) {
    // Tableau 10: told apart by most readers, on light and dark backgrounds alike.
    switch (c) {
    case StepCategory::Kernel:
        return QColor(0x4e, 0x79, 0xa7);
    case StepCategory::Memcpy:
        return QColor(0xf2, 0x8e, 0x2b);
    case StepCategory::Memset:
        return QColor(0xed, 0xc9, 0x48);
    case StepCategory::Communication:
        return QColor(0xe1, 0x57, 0x59);
    case StepCategory::Runtime:
        return QColor(0x76, 0xb7, 0xb2);
    case StepCategory::DataLoader:
        return QColor(0xb0, 0x7a, 0xa1);
    case StepCategory::CpuExec:
        return QColor(0x59, 0xa1, 0x4f);
    case StepCategory::Other:
        break;
    }
    return QColor(0xba, 0xb0, 0xac);
}

void StepBreakdownChart::setStepBreakdown(const StepBreakdown& breakdown) {
    m_breakdown = breakdown;
    const std::size_t n = m_breakdown.steps.size();
    if (n == 0) {
        m_title->setText(tr("Step time breakdown: no steps."));
    } else if (m_breakdown.source == StepSource::WholeTrace) {
        m_title->setText(tr("Step time breakdown: no steps found (ProfilerStep#N or numbered "
                            "NVTX ranges), so the whole trace is one step."));
    } else {
        QString text = (n == 1 ? tr("Step time breakdown: 1 step of %1")
                               : tr("Step time breakdown: %1 steps of %2").arg(n))
                           .arg(m_breakdown.family) %
                       tr(", moved to the GPU side; the last bar is their average. Click a step "
                          "to select it.");
        if (m_breakdown.droppedTailSteps == 1)
            text += u' ' % tr("The last step is left out: the profiler likely missed its GPU "
                              "work.");
        else if (m_breakdown.droppedTailSteps > 1)
            text += u' ' % tr("The last %1 steps are left out: the profiler likely missed their "
                              "GPU work.")
                               .arg(m_breakdown.droppedTailSteps);
        m_title->setText(text);
    }
    fillTable();
    m_canvas->update();
}

int StepBreakdownChart::barCount() const {
    return m_breakdown.steps.empty() ? 0 : int(m_breakdown.steps.size()) + 1;
}

QString StepBreakdownChart::barLabel(int bar) const {
    if (bar < 0 || bar >= barCount())
        return {};
    if (bar == int(m_breakdown.steps.size()))
        return tr("Average");
    if (m_breakdown.source == StepSource::WholeTrace)
        return tr("Trace");
    return u'#' % m_breakdown.steps[std::size_t(bar)].name;
}

double StepBreakdownChart::barTime(int bar, StepCategory c) const {
    if (bar < 0 || bar >= barCount())
        return 0;
    if (bar == int(m_breakdown.steps.size()))
        return m_breakdown.average[std::size_t(c)];
    return double(m_breakdown.steps[std::size_t(bar)].of(c));
}

std::vector<StepCategory> StepBreakdownChart::legendCategories() const {
    std::vector<StepCategory> out;
    for (std::size_t c = 0; c < kStepCategoryCount; ++c) {
        const bool any = std::any_of(m_breakdown.steps.begin(), m_breakdown.steps.end(),
                                     [&](const StepTimes& s) { return s.of(categoryAt(c)) > 0; });
        if (any)
            out.push_back(categoryAt(c));
    }
    return out;
}

std::vector<std::pair<StepCategory, QRect>> StepBreakdownChart::legendLayout() const {
    const QFontMetrics fm = fontMetrics();
    const int lineHeight = std::max(kSwatch, fm.height()) + 4;
    const int right = std::max(kMargin + 1, m_canvas->width() - kMargin);
    std::vector<std::pair<StepCategory, QRect>> out;
    int x = kMargin, y = kMargin;
    for (StepCategory c : legendCategories()) {
        const int w = kSwatch + 4 + fm.horizontalAdvance(categoryLabel(c));
        if (x > kMargin && x + w > right) {
            x = kMargin;
            y += lineHeight;
        }
        out.emplace_back(c, QRect(x, y, w, lineHeight));
        x += w + 14;
    }
    return out;
}

StepBreakdownChart::Plot StepBreakdownChart::plot() const {
    Plot p;
    const QFontMetrics fm = fontMetrics();
    const auto legend = legendLayout();
    p.legendHeight = legend.empty() ? kMargin : legend.back().second.bottom() + 1;
    for (int b = 0; b < barCount(); ++b) {
        double sum = 0;
        for (std::size_t c = 0; c < kStepCategoryCount; ++c)
            sum += barTime(b, categoryAt(c));
        const double total = b == int(m_breakdown.steps.size())
                                 ? m_breakdown.averageTotal
                                 : double(m_breakdown.steps[std::size_t(b)].total());
        p.scale = std::max({p.scale, sum, total});
    }
    // Up to the next tick, so the axis reads in round numbers.
    p.tick = tickStep(p.scale);
    p.scale = std::ceil(p.scale / p.tick - 1e-9) * p.tick;
    const int axis = fm.horizontalAdvance(tickLabel(p.scale, p.scale)) + 10;
    const int top = p.legendHeight + 6 + fm.height() / 2;
    const int bottom = m_canvas->height() - fm.height() - 6;
    p.area = QRect(QPoint(axis, top), QPoint(std::max(axis + 1, m_canvas->width() - kMargin),
                                             std::max(top + 1, bottom)));
    return p;
}

QRect StepBreakdownChart::barSlot(int bar) const {
    if (bar < 0 || bar >= barCount())
        return {};
    const Plot p = plot();
    const double slot = double(p.area.width()) / barCount();
    const int x0 = p.area.left() + int(std::lround(slot * bar));
    const int x1 = p.area.left() + int(std::lround(slot * (bar + 1)));
    return QRect(QPoint(x0, p.area.top()), QPoint(x1 - 1, m_canvas->height() - 1));
}

std::optional<int> StepBreakdownChart::barAt(QPoint pos) const {
    for (int b = 0; b < barCount(); ++b) {
        if (barSlot(b).contains(pos))
            return b;
    }
    return std::nullopt;
}

std::vector<StepBreakdownChart::Segment> StepBreakdownChart::segments(int bar) const {
    std::vector<Segment> out;
    if (bar < 0 || bar >= barCount())
        return out;
    const Plot p = plot();
    const QRect slot = barSlot(bar);
    const int w = std::clamp(int(slot.width() * 0.7), 1, kMaxBarWidth);
    const int x = slot.center().x() - w / 2;
    const double h = p.area.height();
    // Each edge from the running sum, so the segments stack without gaps or rounding drift.
    double sum = 0;
    int lastY = p.area.bottom() + 1;
    for (std::size_t c = 0; c < kStepCategoryCount; ++c) {
        const double t = barTime(bar, categoryAt(c));
        if (t <= 0)
            continue;
        sum += t;
        const int y = p.area.bottom() + 1 - int(std::lround(sum / p.scale * h));
        out.push_back({categoryAt(c), QRect(x, y, w, lastY - y)});
        lastY = y;
    }
    return out;
}

void StepBreakdownChart::paintCanvas(QPainter& p) const {
    const QColor text = palette().color(QPalette::WindowText);
    const QFontMetrics fm = fontMetrics();
    if (barCount() == 0) {
        p.setPen(text);
        p.drawText(m_canvas->rect(), Qt::AlignCenter, tr("No steps."));
        return;
    }
    for (const auto& [c, r] : legendLayout()) {
        const int sy = r.top() + (r.height() - kSwatch) / 2;
        p.fillRect(QRect(r.left(), sy, kSwatch, kSwatch), categoryColor(c));
        p.setPen(text);
        p.drawText(r.adjusted(kSwatch + 4, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   categoryLabel(c));
    }
    const Plot pl = plot();
    // The axis: a line at each tick, labelled.
    const int ticks = int(std::lround(pl.scale / pl.tick));
    for (int k = 0; k <= ticks; ++k) {
        const int y = pl.area.bottom() - int(std::lround(pl.area.height() * double(k) / ticks));
        p.setPen(palette().color(k == 0 ? QPalette::Dark : QPalette::Midlight));
        p.drawLine(pl.area.left(), y, pl.area.right(), y);
        if (k > 0) {
            p.setPen(text);
            p.drawText(QRect(0, y - fm.height() / 2, pl.area.left() - 4, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, tickLabel(pl.tick * k, pl.scale));
        }
    }
    // Labels where they fit: every k-th when the slots are narrow.
    const double slotWidth = double(pl.area.width()) / barCount();
    int widest = fm.horizontalAdvance(tr("Average"));
    for (const StepTimes& s : m_breakdown.steps)
        widest = std::max(widest, fm.horizontalAdvance(u'#' % s.name));
    const int every = std::max(1, int(std::ceil((widest + 6) / std::max(1.0, slotWidth))));
    for (int b = 0; b < barCount(); ++b) {
        for (const Segment& s : segments(b))
            p.fillRect(s.rect, categoryColor(s.category));
        const bool average = b == barCount() - 1;
        if (!average && b % every != 0)
            continue;
        const QRect slot = barSlot(b);
        p.setPen(text);
        QFont f = p.font();
        f.setBold(average);
        p.setFont(f);
        p.drawText(QRect(slot.center().x() - widest, pl.area.bottom() + 3, 2 * widest, fm.height()),
                   Qt::AlignHCenter | Qt::AlignTop, barLabel(b));
    }
}

QString StepBreakdownChart::barToolTip(int bar) const {
    const bool average = bar == int(m_breakdown.steps.size());
    const double total =
        average ? m_breakdown.averageTotal : double(m_breakdown.steps[std::size_t(bar)].total());
    const auto whole = TimeNs(std::llround(total));
    QStringList lines{barLabel(bar) % QStringLiteral(": ") % formatDuration(whole)};
    for (std::size_t c = 0; c < kStepCategoryCount; ++c) {
        const auto t = TimeNs(std::llround(barTime(bar, categoryAt(c))));
        if (t > 0)
            lines << categoryLabel(categoryAt(c)) % QStringLiteral(": ") % formatDuration(t) %
                         QStringLiteral(" (") % percentText(t, whole) % u')';
    }
    if (!average)
        lines << tr("Click to select the step.");
    return lines.join(u'\n');
}

void StepBreakdownChart::fillTable() {
    m_table->setRowCount(barCount());
    for (int b = 0; b < barCount(); ++b) {
        const bool average = b == int(m_breakdown.steps.size());
        const double total =
            average ? m_breakdown.averageTotal : double(m_breakdown.steps[std::size_t(b)].total());
        const auto whole = TimeNs(std::llround(total));
        auto set = [&](int col, const QString& text, Qt::Alignment align) {
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(align | Qt::AlignVCenter);
            if (average) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            m_table->setItem(b, col, item);
        };
        set(0, barLabel(b), Qt::AlignLeft);
        for (std::size_t c = 0; c < kStepCategoryCount; ++c) {
            const auto t = TimeNs(std::llround(barTime(b, categoryAt(c))));
            set(int(c) + 1, formatDuration(t) % QStringLiteral(" (") % percentText(t, whole) % u')',
                Qt::AlignRight);
        }
        set(int(kStepCategoryCount) + 1, formatDuration(whole), Qt::AlignRight);
    }
    m_table->resizeColumnsToContents();
    // Tall enough for a dozen rows without its own scroll bar; longer tables scroll.
    const int rows = std::clamp(barCount(), 4, 12);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              rows * m_table->verticalHeader()->defaultSectionSize() + 4 +
                              m_table->horizontalScrollBar()->sizeHint().height());
}

void StepBreakdownChart::activateBar(int bar) {
    if (bar < 0 || bar >= int(m_breakdown.steps.size()))
        return;
    const StepTimes& s = m_breakdown.steps[std::size_t(bar)];
    emit stepActivated(s.range, s.event);
}

} // namespace strobe
