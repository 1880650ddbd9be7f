// SPDX-License-Identifier: MIT
#include "widgets/panels/breakdownbars.h"

#include "model/analysis/overview.h"
#include "model/reports/overviewtext.h"
#include "model/timeformat.h"
#include "render/paint/timelinecolors.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStringBuilder>
#include <QToolTip>

namespace strobe {

namespace {
constexpr int kLabelWidth = 56;
constexpr int kMargin = 6;
} // namespace

BreakdownBars::BreakdownBars(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void BreakdownBars::setBreakdown(std::vector<GpuBreakdown> gpus) {
    m_gpus = std::move(gpus);
    updateGeometry();
    update();
}

std::vector<BreakdownBars::Segment> BreakdownBars::segments(const GpuBreakdown& b) const {
    const TimelinePalette pal = TimelinePalette::forPalette(palette());
    std::vector<Segment> out;
    for (int c = 0; c < kKernelClassCount; ++c) {
        const auto cls = KernelClass(c);
        const QString key = kernelClassKey(cls);
        out.push_back({kernelClassLabel(cls), b.classes[std::size_t(c)],
                       pal.eventColor(colorCategoryOf(cls), stableNameHash(key.toStdString()))});
    }
    out.push_back({tr("Exposed communication"), b.exposedCommunication, QColor(0xd6, 0x27, 0x28)});
    out.push_back({tr("Memory"), b.memoryOnly, pal.eventColor(ColorCategory::MemcpyHtoD, 0)});
    out.push_back({tr("Idle"), b.idle, pal.utilIdle.darker(115)});
    return out;
}

int BreakdownBars::rowHeight() const {
    return fontMetrics().height() * 2 + 10; // the bar, then its legend line
}

QSize BreakdownBars::sizeHint() const {
    return {480, kMargin + int(std::max<std::size_t>(1, m_gpus.size())) * rowHeight()};
}

QSize BreakdownBars::minimumSizeHint() const {
    return {200, sizeHint().height()};
}

void BreakdownBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int fh = fontMetrics().height();
    int y = kMargin;
    if (m_gpus.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No GPU work."));
        return;
    }
    for (const GpuBreakdown& b : m_gpus) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, kLabelWidth, fh + 4), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("GPU ") % QString::number(b.deviceId));
        const int x0 = kLabelWidth, w = std::max(10, width() - x0 - kMargin);
        const TimeNs span = std::max<TimeNs>(1, b.span.duration());
        TimeNs acc = 0;
        QStringList legend;
        for (const Segment& s : segments(b)) {
            const int a = x0 + int(double(acc) / double(span) * w);
            acc += s.ns;
            const int e = x0 + int(double(acc) / double(span) * w);
            if (s.ns > 0) {
                p.fillRect(QRect(a, y, std::max(1, e - a), fh + 4), s.color);
                if (100 * s.ns >= span) // legend: segments of at least 1 %
                    legend << s.label % u' ' % percentText(s.ns, span);
            }
        }
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(QRect(x0, y, w, fh + 4).adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(
            QRect(x0, y + fh + 5, w, fh + 2), Qt::AlignLeft | Qt::AlignVCenter,
            fontMetrics().elidedText(legend.join(QStringLiteral("  \u00b7  ")), Qt::ElideRight, w));
        y += rowHeight();
    }
}

bool BreakdownBars::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip)
        return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const int row = (help->pos().y() - kMargin) / rowHeight();
    if (row < 0 || row >= int(m_gpus.size())) {
        QToolTip::hideText();
        return true;
    }
    const GpuBreakdown& b = m_gpus[std::size_t(row)];
    QStringList lines{tr("GPU %1, span %2").arg(b.deviceId).arg(formatDuration(b.span.duration()))};
    for (const Segment& s : segments(b))
        lines << s.label % QStringLiteral(": ") % formatDuration(s.ns) % QStringLiteral(" (") %
                     percentText(s.ns, b.span.duration()) % u')';
    QToolTip::showText(help->globalPos(), lines.join(u'\n'), this);
    return true;
}

} // namespace strobe
