// SPDX-License-Identifier: MIT
#include "widgets/panels/flamegraphview.h"

#include "model/reports/overviewtext.h"
#include "model/timeformat.h"
#include "render/paint/timelinecolors.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QStringBuilder>
#include <QToolTip>
#include <algorithm>

namespace strobe {

namespace {

constexpr int kLabelPadding = 4;
constexpr double kMinBoxWidth = 1.0; // narrower children merge

QString kindText(FlameKind k) {
    switch (k) {
    case FlameKind::Root:
        return FlameGraphView::tr("every thread");
    case FlameKind::Thread:
        return FlameGraphView::tr("thread");
    case FlameKind::Operator:
        return FlameGraphView::tr("operator");
    case FlameKind::Annotation:
        return FlameGraphView::tr("annotation");
    case FlameKind::Python:
        return FlameGraphView::tr("Python frame");
    }
    return {};
}

// `c` blended halfway to `toward`: the ancestors of a zoomed box.
QColor washed(const QColor& c, const QColor& toward) {
    return QColor((c.red() + toward.red()) / 2, (c.green() + toward.green()) / 2,
                  (c.blue() + toward.blue()) / 2);
}

} // namespace

FlameGraphView::FlameGraphView(QWidget* parent)
    : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus); // Escape zooms out
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

FlameGraphView::~FlameGraphView() = default;

void FlameGraphView::setFlameGraph(FlameGraph graph) {
    m_graph = std::move(graph);
    m_focus = 0;
    m_layoutValid = false;
    updateGeometry();
    update();
    emit focusChanged(m_focus);
}

void FlameGraphView::zoomTo(std::uint32_t node) {
    if (node >= m_graph.nodes.size() || node == m_focus)
        return;
    m_focus = node;
    m_layoutValid = false;
    update();
    emit focusChanged(m_focus);
}

void FlameGraphView::zoomOut() {
    if (m_focus < m_graph.nodes.size() && m_focus != 0)
        zoomTo(m_graph.nodes[m_focus].parent);
}

int FlameGraphView::rowHeight() const {
    return fontMetrics().height() + 6;
}

QSize FlameGraphView::sizeHint() const {
    const int rows = m_graph.isEmpty() ? 3 : int(m_graph.maxDepth) + 1;
    return {640, rows * rowHeight()};
}

QSize FlameGraphView::minimumSizeHint() const {
    return {160, 3 * rowHeight()};
}

QColor FlameGraphView::colorOf(FlameKind kind, const QString& name,
                               const TimelinePalette& palette) {
    if (kind == FlameKind::Root || kind == FlameKind::Thread)
        return palette.groupHeader;
    // Hue bands: operators warm (the usual flame), annotations blue, Python frames green.
    const int hue = kind == FlameKind::Operator ? 24 : kind == FlameKind::Annotation ? 212 : 105;
    const int sat = kind == FlameKind::Operator ? 170 : kind == FlameKind::Annotation ? 120 : 130;
    const std::uint32_t h = stableNameHash(name.toStdString());
    const int spread = 14;
    const int hh = (hue + int(h % std::uint32_t(2 * spread + 1)) - spread + 360) % 360;
    const int shade = int((h >> 8) % 40u);
    const int value = palette.dark ? 150 + shade : 200 + shade / 2;
    return QColor::fromHsv(hh, palette.dark ? sat * 4 / 5 : sat, std::min(255, value));
}

bool FlameGraphView::isAncestorOfFocus(std::uint32_t node) const {
    for (std::uint32_t n = m_focus; n != 0; n = m_graph.nodes[n].parent) {
        if (m_graph.nodes[n].parent == node)
            return true;
    }
    return false;
}

void FlameGraphView::layOut() const {
    if (m_layoutValid)
        return;
    m_layoutValid = true;
    m_rows.clear();
    if (m_graph.isEmpty() || m_focus >= m_graph.nodes.size())
        return;
    m_rows.resize(std::size_t(m_graph.maxDepth) + 1);
    const double w = std::max(1, width());
    const int rh = rowHeight();
    // The focus's ancestors, full width above it.
    for (std::uint32_t n = m_focus; n != 0;) {
        n = m_graph.nodes[n].parent;
        const std::uint32_t d = m_graph.nodes[n].depth;
        m_rows[d].push_back({QRectF(0, d * rh, w, rh), n, 0});
    }
    // The focus and its descendants, depth first, so each row fills left to right.
    struct Pending {
        std::uint32_t node;
        double x, width;
    };
    std::vector<Pending> stack{{m_focus, 0.0, w}};
    while (!stack.empty()) {
        const Pending p = stack.back();
        stack.pop_back();
        const FlameNode& n = m_graph.nodes[p.node];
        m_rows[n.depth].push_back({QRectF(p.x, n.depth * rh, p.width, rh), p.node, 0});
        if (n.total <= 0 || n.children.empty())
            continue;
        const double perNs = p.width / double(n.total);
        double x = p.x;
        std::vector<Pending> placed;
        for (std::size_t i = 0; i < n.children.size(); ++i) {
            const std::uint32_t c = n.children[i];
            const double cw = double(m_graph.nodes[c].total) * perNs;
            if (cw < kMinBoxWidth) {
                // Children are by total descending: the rest are narrower still, drawn as one.
                double rest = 0;
                for (std::size_t j = i; j < n.children.size(); ++j)
                    rest += double(m_graph.nodes[n.children[j]].total) * perNs;
                if (rest >= kMinBoxWidth)
                    m_rows[n.depth + 1].push_back({QRectF(x, (n.depth + 1) * rh, rest, rh), p.node,
                                                   std::uint32_t(n.children.size() - i)});
                break;
            }
            placed.push_back({c, x, cw});
            x += cw;
        }
        // Leftmost on top of the stack: each row then grows left to right.
        stack.insert(stack.end(), placed.rbegin(), placed.rend());
    }
    // A merged box is pushed while its parent's row is laid out, before the parent's placed
    // siblings: order every row by x.
    for (auto& row : m_rows)
        std::stable_sort(row.begin(), row.end(),
                         [](const Box& a, const Box& b) { return a.rect.x() < b.rect.x(); });
}

const std::vector<std::vector<FlameGraphView::Box>>& FlameGraphView::boxes() const {
    layOut();
    return m_rows;
}

const FlameGraphView::Box* FlameGraphView::boxAt(QPoint pos) const {
    layOut();
    const int rh = rowHeight();
    if (pos.y() < 0 || rh <= 0)
        return nullptr;
    const std::size_t row = std::size_t(pos.y() / rh);
    if (row >= m_rows.size())
        return nullptr;
    const auto& r = m_rows[row];
    const double x = pos.x() + 0.5;
    auto it = std::upper_bound(r.begin(), r.end(), x,
                               [](double v, const Box& b) { return v < b.rect.x(); });
    if (it == r.begin())
        return nullptr;
    --it;
    return x < it->rect.right() ? &*it : nullptr;
}

std::optional<std::uint32_t> FlameGraphView::nodeAt(QPoint pos) const {
    const Box* b = boxAt(pos);
    if (!b || b->merged > 0)
        return std::nullopt;
    return b->node;
}

std::optional<QRectF> FlameGraphView::boxOf(std::uint32_t node) const {
    layOut();
    if (node >= m_graph.nodes.size())
        return std::nullopt;
    const std::uint32_t d = m_graph.nodes[node].depth;
    if (d >= m_rows.size())
        return std::nullopt;
    for (const Box& b : m_rows[d]) {
        if (b.node == node && b.merged == 0)
            return b.rect;
    }
    return std::nullopt;
}

QString FlameGraphView::toolTipOf(std::uint32_t node) const {
    if (node >= m_graph.nodes.size())
        return {};
    const FlameNode& n = m_graph.nodes[node];
    QString text = n.name % QStringLiteral(" (") % kindText(n.kind) % u')';
    text += u'\n' % tr("Total: %1").arg(formatDuration(n.total));
    if (node != 0)
        text += tr(" (%1 of %2)")
                    .arg(percentText(n.total, m_graph.nodes[n.parent].total),
                         m_graph.nodes[n.parent].name);
    text += u'\n' % tr("Self: %1").arg(formatDuration(n.self));
    text += u'\n' % tr("Calls: %1").arg(n.calls);
    if (n.longest.isValid())
        text += u'\n' % tr("Longest call: %1 (double-click to select it)")
                            .arg(formatDuration(n.longestRange.duration()));
    return text;
}

void FlameGraphView::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const TimelinePalette pal = TimelinePalette::forPalette(palette());
    p.fillRect(event->rect(), pal.background);
    if (m_graph.isEmpty()) {
        p.setPen(pal.text);
        p.drawText(rect(), Qt::AlignCenter,
                   tr("No operators, annotations or Python frames ran in this range."));
        return;
    }
    layOut();
    const int rh = rowHeight();
    const QFontMetrics fm = fontMetrics();
    const int minLabel = fm.horizontalAdvance(QStringLiteral("M\u2026")) + 2 * kLabelPadding;
    const int firstRow = std::max(0, event->rect().top() / rh);
    const int lastRow = std::min(int(m_rows.size()) - 1, event->rect().bottom() / rh);
    for (int row = firstRow; row <= lastRow; ++row) {
        for (const Box& b : m_rows[std::size_t(row)]) {
            // Whole pixels, a 1 px gap on the right and below when there is room.
            const int x0 = int(b.rect.left());
            const int x1 = std::max(x0 + 1, int(b.rect.right()));
            if (x1 < event->rect().left() || x0 > event->rect().right())
                continue;
            const int w = x1 - x0 > 3 ? x1 - x0 - 1 : x1 - x0;
            const QRect r(x0, row * rh, w, rh - 1);
            const FlameNode& n = m_graph.nodes[b.node];
            if (b.merged > 0) {
                p.fillRect(r, pal.folded);
                continue;
            }
            QColor fill = colorOf(n.kind, n.name, pal);
            const bool crumb = b.node != m_focus && isAncestorOfFocus(b.node);
            if (crumb)
                fill = washed(fill, pal.background);
            p.fillRect(r, fill);
            if (w < minLabel)
                continue;
            const bool onHeader = n.kind == FlameKind::Root || n.kind == FlameKind::Thread;
            p.setPen(onHeader || crumb ? pal.text : pal.textOnBar);
            const QString label = fm.elidedText(n.name, Qt::ElideRight, w - 2 * kLabelPadding);
            p.drawText(r.adjusted(kLabelPadding, 0, -kLabelPadding, 0),
                       Qt::AlignVCenter | Qt::AlignLeft, label);
        }
    }
}

void FlameGraphView::resizeEvent(QResizeEvent* event) {
    m_layoutValid = false;
    QWidget::resizeEvent(event);
}

void FlameGraphView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        m_pressPos = event->position().toPoint();
    QWidget::mousePressEvent(event);
}

void FlameGraphView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::LeftButton && m_pressPos &&
        (pos - *m_pressPos).manhattanLength() <= 3) {
        if (const Box* b = boxAt(pos))
            zoomTo(b->node); // a merged box zooms into its parent
    }
    m_pressPos.reset();
    QWidget::mouseReleaseEvent(event);
}

void FlameGraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto node = nodeAt(event->position().toPoint())) {
        const FlameNode& n = m_graph.nodes[*node];
        if (n.longest.isValid())
            emit rangeActivated(n.longest, n.longestRange);
    }
}

void FlameGraphView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && m_focus != 0) {
        zoomOut();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool FlameGraphView::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip)
        return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const Box* b = boxAt(help->pos());
    if (!b) {
        QToolTip::hideText();
        return true;
    }
    QString text;
    if (b->merged > 0) {
        const FlameNode& parent = m_graph.nodes[b->node];
        TimeNs rest = 0;
        for (std::size_t i = parent.children.size() - b->merged; i < parent.children.size(); ++i)
            rest = saturatingAdd(rest, m_graph.nodes[parent.children[i]].total);
        text = tr("%n smaller path(s) under %1, %2 together (click to zoom in)", nullptr,
                  int(b->merged))
                   .arg(parent.name, formatDuration(rest));
    } else {
        text = toolTipOf(b->node);
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

} // namespace strobe
