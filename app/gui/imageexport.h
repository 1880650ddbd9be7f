// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QSize>
#include <QString>

class QRadioButton;
class QSpinBox;

namespace strobe {

class TimelineView;

// The size of a picture of `view` as it is on screen: its header column and canvas (without
// the scroll bar), its ruler, and the footer line under the lanes.
QSize viewPictureSize(const TimelineView& view);

// Saves what `view` shows (its visible lanes, scroll position and zoom) as a PNG or an SVG
// (by the suffix of `path`) `size` logical pixels big, through the picture code strobe-cli
// render uses; `title` names the trace in the footer. Returns the error sentence, or an empty
// string once written. Waits for the level of detail if it is still being built.
QString exportViewImage(TimelineView& view, const QString& title, const QString& path, QSize size);

// Asks for the size of the exported picture: the window's, or one typed in.
class ImageSizeDialog : public QDialog {
    Q_OBJECT
public:
    ImageSizeDialog(QSize windowSize, QWidget* parent = nullptr);
    QSize chosenSize() const;

private:
    QSize m_windowSize;
    QRadioButton* m_custom = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
};

} // namespace strobe
