// SPDX-License-Identifier: MIT
#include "app/gui/imageexport.h"

#include "formats/samefile.h"
#include "model/timeformat.h"
#include "model/trace.h"
#include "render/geometry/rulerflags.h"
#include "render/paint/timelinepicture.h"
#include "widgets/bookmarks.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timeline/timeruler.h"
#include "widgets/viewstate.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QStringBuilder>
#include <QVBoxLayout>

namespace strobe {

namespace {
constexpr int kMaxSide = 16384; // as strobe-cli render
} // namespace

QSize viewPictureSize(const TimelineView& view) {
    const QSize canvas = view.canvasSize();
    return {TimelineView::kHeaderWidth + canvas.width(),
            TimelineView::kRulerHeight + canvas.height() + kPictureFooterHeight};
}

QSize panesPictureSize(std::span<const ExportedPane> panes) {
    if (panes.empty())
        return {};
    QSize size = viewPictureSize(*panes.front().view);
    for (const ExportedPane& p : panes)
        size.rheight() += p.title.isEmpty() ? 0 : kPictureTitleHeight;
    for (const ExportedPane& p : panes.subspan(1))
        size.rheight() += p.view->canvasSize().height();
    return size;
}

QString exportViewImage(TimelineView& view, const QString& title, const QString& path, QSize size) {
    const ExportedPane pane{&view, QString(), 0};
    return exportPanesImage({&pane, 1}, title, path, size);
}

QString exportPanesImage(std::span<const ExportedPane> panes, const QString& footer,
                         const QString& path, QSize size) {
    const ViewState* state = panes.empty() ? nullptr : panes.front().view->viewState();
    if (!state || !state->trace())
        return QStringLiteral("There is no trace to export.");
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return QStringLiteral("Export Image saves .png or .svg files, not ") %
               QFileInfo(path).fileName() % u'.';
    std::vector<PictureTrace> traces;
    const TimeNs origin = state->trace()->timeRange().start;
    for (const ExportedPane& pane : panes) {
        const Trace* trace = pane.view->viewState()->trace();
        if (!trace)
            return QStringLiteral("There is no trace to export.");
        if (isSameFile(path, trace->filePath()))
            return QStringLiteral("Export Image would overwrite the open trace ") %
                   QFileInfo(path).fileName() % QStringLiteral(": choose another file.");
        if (!pane.view->isLevelOfDetailReady())
            pane.view->waitForLevelOfDetail(); // else the picture would say "Computing utilisation"
        PictureTrace t;
        t.layout = &pane.view->laneLayout();
        t.geometry = &pane.view->geometry();
        t.offset = origin + pane.shift; // this trace's time at time 0 of the first pane's axis
        t.scrollY = pane.view->scrollY();
        t.title = pane.title;
        // Several panes: each band as high as its pane on screen, not all the rows of the first.
        if (panes.size() > 1)
            t.height =
                (t.title.isEmpty() ? 0 : kPictureTitleHeight) + pane.view->canvasSize().height();
        traces.push_back(std::move(t));
    }
    const TimelineView& first = *panes.front().view;
    const TimeRange visible = state->visibleRange();
    PictureOptions o;
    o.size = size.boundedTo(QSize(kMaxSide, kMaxSide));
    o.window = {visible.start - origin, visible.end - origin};
    o.palette = first.timelinePalette();
    o.font = first.font();
    o.idleThreshold = state->idleThresholdNs();
    if (const Bookmarks* marks = first.ruler()->bookmarks()) // the flags its ruler shows
        o.marks = noteMarks(marks->set(), origin);
    o.footer = footer % QStringLiteral("  \u00b7  ") % formatTimestamp(o.window.start, 0) %
               QStringLiteral(" to ") % formatTimestamp(o.window.end, 0) %
               QStringLiteral("  \u00b7  Strobe ") % QLatin1String(STROBE_VERSION);
    const QString error = writeTimelinePicture(
        path, suffix == QLatin1String("svg") ? PictureFormat::Svg : PictureFormat::Png, o, traces);
    if (error.isEmpty())
        return {};
    QString sentence = error;
    sentence[0] = sentence[0].toUpper();
    return sentence;
}

ImageSizeDialog::ImageSizeDialog(QSize windowSize, QWidget* parent)
    : QDialog(parent)
    , m_windowSize(windowSize) {
    setWindowTitle(tr("Export Image"));
    auto* window = new QRadioButton(
        tr("Window size (%1 × %2)").arg(windowSize.width()).arg(windowSize.height()), this);
    window->setChecked(true);
    m_custom = new QRadioButton(tr("Custom size:"), this);
    m_width = new QSpinBox(this);
    m_height = new QSpinBox(this);
    for (QSpinBox* box : {m_width, m_height}) {
        box->setRange(TimelineView::kHeaderWidth + 100, kMaxSide);
        box->setSuffix(tr(" px"));
        box->setEnabled(false);
        connect(m_custom, &QRadioButton::toggled, box, &QWidget::setEnabled);
    }
    m_height->setMinimum(100);
    m_width->setValue(windowSize.width());
    m_height->setValue(windowSize.height());
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_custom);
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(m_height);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("The visible lanes at the current zoom, as a picture."), this));
    layout->addWidget(window);
    layout->addLayout(sizeRow);
    layout->addWidget(buttons);
}

QSize ImageSizeDialog::chosenSize() const {
    return m_custom->isChecked() ? QSize(m_width->value(), m_height->value()) : m_windowSize;
}

} // namespace strobe
