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

std::vector<BreakdownBars::LegendItem> BreakdownBars::legend(const GpuBreakdown& b,
                                                             int width) const {
    std::vector<Segment> shown;
    std::vector<TimeNs> ns;
    for (Segment& s : segments(b)) {
        if (s.ns > 0) {
            ns.push_back(s.ns);
            shown.push_back(std::move(s));
        }
    }
    const QStringList shares = roundedShareTexts(ns);
    const QFontMetrics fm = fontMetrics();
    const int lineHeight = fm.height() + 2, box = fm.height() - 4, gap = fm.horizontalAdvance(u' ');
    std::vector<LegendItem> out;
    int x = 0, y = 0;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        LegendItem item;
        item.text = shown[i].label % u' ' % shares[int(i)];
        item.color = shown[i].color;
        const int textWidth = fm.horizontalAdvance(item.text);
        const int itemWidth = box + gap + textWidth;
        if (x > 0 && x + itemWidth > width) {
            x = 0;
            y += lineHeight;
        }
        item.swatch = QRect(x, y + (lineHeight - box) / 2, box, box);
        item.label = QRect(x + box + gap, y, textWidth, lineHeight);
        out.push_back(std::move(item));
        x += itemWidth + 3 * gap;
    }
    return out;
}

int BreakdownBars::barWidth(int width) const {
    return std::max(10, width - kLabelWidth - kMargin);
}

int BreakdownBars::legendLines(const GpuBreakdown& b, int width) const {
    const auto items = legend(b, barWidth(width));
    return items.empty() ? 1 : 1 + items.back().label.top() / (fontMetrics().height() + 2);
}

int BreakdownBars::rowHeight(const GpuBreakdown& b, int width) const {
    const int fh = fontMetrics().height();
    return fh + 5 + legendLines(b, width) * (fh + 2) + 5;
}

int BreakdownBars::heightForWidth(int width) const {
    int h = kMargin;
    for (const GpuBreakdown& b : m_gpus)
        h += rowHeight(b, width);
    return m_gpus.empty() ? kMargin + 2 * fontMetrics().height() + 10 : h;
}

QSize BreakdownBars::sizeHint() const {
    return {480, heightForWidth(width() > 0 ? width() : 480)};
}

QSize BreakdownBars::minimumSizeHint() const {
    return {200, heightForWidth(width() > 0 ? width() : 480)};
}

void BreakdownBars::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The legend wraps with the width: a new width may need another height.
    if (heightForWidth(width()) != height())
        updateGeometry();
}

void BreakdownBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int fh = fontMetrics().height();
    int y = kMargin;
    if (m_gpus.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No GPU work."));
        return;
    }
    const int x0 = kLabelWidth, w = barWidth(width());
    for (const GpuBreakdown& b : m_gpus) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, kLabelWidth, fh + 4), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("GPU ") % QString::number(b.deviceId));
        const TimeNs span = std::max<TimeNs>(1, b.span.duration());
        TimeNs acc = 0;
        for (const Segment& s : segments(b)) {
            const int a = x0 + int(double(acc) / double(span) * w);
            acc += s.ns;
            const int e = x0 + int(double(acc) / double(span) * w);
            if (s.ns > 0)
                p.fillRect(QRect(a, y, std::max(1, e - a), fh + 4), s.color);
        }
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(QRect(x0, y, w, fh + 4).adjusted(0, 0, -1, -1));
        const QPoint origin(x0, y + fh + 5);
        for (const LegendItem& item : legend(b, w)) {
            p.fillRect(item.swatch.translated(origin), item.color);
            p.setPen(palette().color(QPalette::Mid));
            p.drawRect(item.swatch.translated(origin).adjusted(0, 0, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(item.label.translated(origin), Qt::AlignLeft | Qt::AlignVCenter, item.text);
        }
        y += rowHeight(b, width());
    }
}

bool BreakdownBars::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip)
        return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    int row = -1;
    for (int i = 0, top = kMargin; i < int(m_gpus.size()); ++i) {
        const int bottom = top + rowHeight(m_gpus[std::size_t(i)], width());
        if (help->pos().y() >= top && help->pos().y() < bottom)
            row = i;
        top = bottom;
    }
    if (row < 0) {
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
