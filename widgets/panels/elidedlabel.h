// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>

namespace strobe {

// One line of text, elided at the right to the width it is given, with the full text in its
// tooltip. Its size hints do not depend on the text, so a long value (a templated kernel name
// of a thousand characters) never widens the layout or the dock around it.
class ElidedLabel final : public QWidget {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    void setText(const QString& text);
    const QString& text() const { return m_text; }
    // What is drawn at the current width: text(), or its start and an ellipsis.
    QString displayedText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_text;
};

} // namespace strobe
