// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QDialog>
#include <QSize>
#include <QString>
#include <span>

class QRadioButton;
class QSpinBox;

namespace strobe {

class TimelineView;

// One timeline of an exported picture, in a band of its own: `title` above its lanes (empty:
// no title band), and its trace's time `shift` after the first pane's at the same x (a
// comparison's B: TimelineLink::offset()).
struct ExportedPane {
    TimelineView* view = nullptr;
    QString title;
    TimeNs shift = 0;
};

// The size of a picture of `view` as it is on screen: its header column and canvas (without
// the scroll bar), its ruler, and the footer line under the lanes.
QSize viewPictureSize(const TimelineView& view);
// The same for panes stacked on one ruler: the first pane's width, each pane's title band and
// canvas.
QSize panesPictureSize(std::span<const ExportedPane> panes);

// Saves what `view` shows (its visible lanes, scroll position and zoom) as a PNG or an SVG
// (by the suffix of `path`) `size` logical pixels big, through the picture code strobe-cli
// render uses; `title` names the trace in the footer. Returns the error sentence, or an empty
// string once written. Waits for the level of detail if it is still being built.
QString exportViewImage(TimelineView& view, const QString& title, const QString& path, QSize size);
// The same for panes stacked top to bottom on the first pane's visible range (a comparison:
// A above B, each named in its band); `footer` names them in the footer line.
QString exportPanesImage(std::span<const ExportedPane> panes, const QString& footer,
                         const QString& path, QSize size);

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
