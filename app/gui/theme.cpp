// SPDX-License-Identifier: MIT
#include "app/gui/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace strobe {

namespace {

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor highlight(0x3d, 0x7e, 0xd9);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, text.darker(160));
    p.setColor(QPalette::Disabled, QPalette::Text, text.darker(170));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, text.darker(170));
    p.setColor(QPalette::Disabled, QPalette::WindowText, text.darker(170));
    return p;
}

} // namespace

void applyTheme(QApplication& app, Theme theme) {
    static const QString platformStyle = app.style()->name();
    static const QPalette platformPalette = app.palette();
    switch (theme) {
    case Theme::System:
        app.setStyle(QStyleFactory::create(platformStyle));
        app.setPalette(platformPalette);
        break;
    case Theme::Light:
        app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        app.setPalette(app.style()->standardPalette());
        break;
    case Theme::Dark:
        app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        app.setPalette(darkPalette());
        break;
    }
}

} // namespace strobe
