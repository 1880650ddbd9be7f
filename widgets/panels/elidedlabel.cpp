// SPDX-License-Identifier: MIT
#include "widgets/panels/elidedlabel.h"

#include <QPainter>

namespace strobe {

namespace {
constexpr int kHintChars = 24;   // preferred width, in average characters
constexpr int kMinimumChars = 6; // narrowest useful width
constexpr int kMarginPx = 2;
} // namespace

ElidedLabel::ElidedLabel(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ElidedLabel::setText(const QString& text) {
    if (text == m_text)
        return;
    m_text = text;
    setToolTip(text);
    update();
}

QString ElidedLabel::displayedText() const {
    return fontMetrics().elidedText(m_text, Qt::ElideRight, width() - 2 * kMarginPx);
}

QSize ElidedLabel::sizeHint() const {
    return {fontMetrics().averageCharWidth() * kHintChars, fontMetrics().height() + 2 * kMarginPx};
}

QSize ElidedLabel::minimumSizeHint() const {
    return {fontMetrics().averageCharWidth() * kMinimumChars,
            fontMetrics().height() + 2 * kMarginPx};
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(rect().adjusted(kMarginPx, 0, -kMarginPx, 0), Qt::AlignVCenter | Qt::AlignLeft,
               displayedText());
}

} // namespace strobe
