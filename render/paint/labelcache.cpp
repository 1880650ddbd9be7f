// SPDX-License-Identifier: MIT
#include "render/paint/labelcache.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPointF>
#include <QTextLayout>
#include <QTransform>
#include <algorithm>
#include <iterator>

namespace strobe {

void LabelCache::clear() {
    m_entries.clear();
    m_runs = 0;
}

QStaticText preparedText(const QString& text, const QFont& font) {
    QStaticText s(text);
    s.setTextFormat(Qt::PlainText);
    s.prepare(QTransform(), font);
    return s;
}

LabelCache::Entry& LabelCache::entry(const QString& text) {
    auto it = m_entries.find(text);
    if (it == m_entries.end()) {
        Entry e;
        e.width = QFontMetrics(m_font).horizontalAdvance(text);
        e.rightToLeft = text.isRightToLeft();
        it = m_entries.insert(text, e); // (QHash::insert copies: a move would not happen)
    }
    return it.value();
}

void LabelCache::measureCuts(const QString& whole, Entry& e) const {
    // One layout of the text: the advance before each position where a cut may go. Only its
    // first kMaxCutChars characters: a cut further in needs a bar thousands of pixels wide, and
    // finding each position's advance costs time in the text's length (a hostile trace's 64 KiB
    // names took seconds a frame).
    const QString text = whole.left(kMaxCutChars);
    QTextLayout layout(text, m_font);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    layout.endLayout();
    e.cuts.clear();
    for (qsizetype i = 0; line.isValid() && i <= text.size(); ++i) {
        if (layout.isValidCursorPosition(int(i)))
            e.cuts.emplace_back(int(i), float(line.cursorToX(int(i))));
    }
}

void LabelCache::draw(QPainter& p, const QFont& font, QPointF baseline, const QString& text,
                      int avail) {
    if (!m_hasFont || font != m_font) {
        clear();
        m_font = font;
        m_hasFont = true;
        const QFontMetrics fm(font);
        // As QFontMetrics::elidedText: the ellipsis character where the font has it.
        m_ellipsis = fm.inFont(QChar(0x2026)) ? QString(QChar(0x2026)) : QStringLiteral("...");
        m_ellipsisWidth = fm.horizontalAdvance(m_ellipsis);
        m_ascent = fm.ascent();
    }
    if (m_runs >= kMaxRuns || std::size_t(m_entries.size()) >= kMaxRuns)
        clear(); // a long session over many names: start again rather than grow
    Entry& e = entry(text);
    const QPointF topLeft(baseline.x(), baseline.y() - m_ascent);
    if (e.width <= avail) {
        if (e.whole.text().isEmpty() && !text.isEmpty()) {
            e.whole = preparedText(text, m_font);
            ++m_runs;
        }
        p.drawStaticText(topLeft, e.whole);
        return;
    }
    if (e.rightToLeft) { // cut positions do not grow left to right: Qt's own elision
        p.drawText(baseline, QFontMetrics(m_font).elidedText(text, Qt::ElideRight, avail));
        return;
    }
    if (e.cuts.empty())
        measureCuts(text, e);
    // As elidedText: the longest prefix narrower than the room the ellipsis leaves.
    const float room = float(avail - m_ellipsisWidth);
    if (room < 0)
        return;
    const auto past = std::partition_point(e.cuts.begin(), e.cuts.end(),
                                           [room](const auto& c) { return c.second < room; });
    const int keep = past == e.cuts.begin() ? 0 : std::prev(past)->first;
    auto it = e.prefix.find(keep);
    if (it == e.prefix.end()) {
        it = e.prefix.insert(keep, preparedText(text.left(keep) + m_ellipsis, m_font));
        ++m_runs;
    }
    p.drawStaticText(topLeft, it.value());
}

} // namespace strobe
