// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QString>
#include <utility>
#include <vector>

class QPainter;
class QPointF;

namespace strobe {

// `text` laid out once in `font` for QPainter::drawStaticText (plain text, untransformed).
QStaticText preparedText(const QString& text, const QFont& font);

// Bar labels drawn from glyph runs shaped once. QPainter::drawText shapes its string on every
// call, and QFontMetrics::elidedText shapes it again for each length it tries: at a zoom where
// bars are wide enough to be named, that is about half of a frame. Here each name is measured
// once per font (its width and the advance at each place it may be cut), and each cut of it
// that is drawn becomes a QStaticText, so a frame only looks them up and draws the glyphs.
//
// The same text as QPainter::drawText of QFontMetrics::elidedText(text, Qt::ElideRight, avail):
// the longest prefix (at a grapheme boundary) that fits with the ellipsis after it. Text read
// right to left goes to Qt's own elision.
class LabelCache {
public:
    // Draws `text` with its baseline's left end at `baseline`, cut with an ellipsis where it is
    // wider than `avail` pixels (nothing where not even the ellipsis fits). The painter's font
    // must be `font`.
    void draw(QPainter& p, const QFont& font, QPointF baseline, const QString& text, int avail);
    // Forgets every name (a new trace).
    void clear();
    // How many glyph runs are kept; at most kMaxRuns (and as many names), then the cache starts
    // again.
    std::size_t runCount() const { return m_runs; }
    static constexpr std::size_t kMaxRuns = 20'000;
    // A name is cut within its first kMaxCutChars characters (where a longer one would be cut
    // further in, it is cut there, with the ellipsis).
    static constexpr qsizetype kMaxCutChars = 1024;

private:
    struct Entry {
        int width = 0; // QFontMetrics::horizontalAdvance of the whole text
        bool rightToLeft = false;
        QStaticText whole; // prepared on first draw
        // Where a cut may go (a grapheme boundary) and the advance before it, left to right.
        std::vector<std::pair<int, float>> cuts;
        QHash<int, QStaticText> prefix; // by prefix length: that prefix and the ellipsis
    };
    Entry& entry(const QString& text);
    void measureCuts(const QString& text, Entry& e) const;

    QFont m_font;
    bool m_hasFont = false;
    QString m_ellipsis;
    int m_ellipsisWidth = 0;
    int m_ascent = 0;
    QHash<QString, Entry> m_entries;
    std::size_t m_runs = 0;
};

} // namespace strobe
