// SPDX-License-Identifier: MIT
// The lane name column's labels: whole where they fit, and where they do not, cut so that what
// tells rows apart stays (a thread's name and its tid).
#include "model/tracebuilder.h"
#include "render/geometry/lanelayout.h"
#include "render/paint/headerpainter.h"
#include "render/paint/paintcontext.h"
#include "render/paint/timelinecolors.h"
#include "tests/support/qtprinters.h"

#include <QBuffer>
#include <QFontMetrics>
#include <QPainter>
#include <QSvgGenerator>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// PyTorch's profiler names its threads "thread TID (NAME)" and Strobe adds " [TID]".
const QString kKinetoThread = QStringLiteral("thread 2910249 (pt_main_thread) [2910249]");
const QString kTail = QStringLiteral(" [2910249]");
const QChar kEllipsis(0x2026);

QFont boldLaneFont() {
    QFont f = laneFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    f.setBold(true);
    return f;
}

// One process with one thread named like a Kineto thread, with a CUDA API call.
std::unique_ptr<Trace> kinetoLikeTrace() {
    TraceBuilder b(QStringLiteral("kineto-like"));
    b.setProcessName(2910249, b.intern("python3.10"));
    b.setThreadName(2910249, 2910249, b.intern("thread 2910249 (pt_main_thread)"));
    ApiCallRecord r;
    r.correlationId = 1;
    b.addApiCall(2910249, 2910249, 100, 200, b.intern("cudaLaunchKernel"), r);
    return b.finish();
}

// The texts an SVG painting of the lane header drew, top to bottom.
std::vector<QString> paintedTexts(const LaneLayout& layout, const QFont& base,
                                  HeaderLabels* labels) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(kLaneHeaderWidth, 200));
    svg.setResolution(96); // as a screen's or a QImage's logical pixels (the SVG's own is 72)
    {
        QPainter p(&svg);
        paintLaneHeader(p, QSize(kLaneHeaderWidth, 200), layout, 0, TimelinePalette::light(), base,
                        labels);
    }
    std::vector<QString> out;
    QXmlStreamReader xml(buffer.data());
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text")
            out.push_back(xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed());
    return out;
}

} // namespace

TEST(ElidedLaneLabel, AWholeLabelThatFitsIsNeverCut) {
    const QFontMetrics fm(boldLaneFont());
    for (const QString& label :
         {kKinetoThread, QStringLiteral("python3.10 [2910249]"),
          QStringLiteral("GPU 0 (NVIDIA A100-SXM4-80GB)"),
          QStringLiteral("thread 2910249 (pt_main_thread) [2910249] / CUDA API")}) {
        const int need = fm.horizontalAdvance(label);
        EXPECT_EQ(elidedLaneLabel(label, fm, need), label);
        EXPECT_EQ(elidedLaneLabel(label, fm, need + 40), label);
        const QString cut = elidedLaneLabel(label, fm, need - 1);
        EXPECT_NE(cut, label);
        EXPECT_TRUE(cut.contains(kEllipsis)) << cut.toStdString();
        EXPECT_LE(fm.horizontalAdvance(cut), need - 1) << cut.toStdString();
    }
}

// Cut in the middle, both threads of that trace read "thread 29…) [29…]": the part that names
// them (pt_main_thread, pt_autograd_0) went. Now the name is cut at its end and the tid kept.
TEST(ElidedLaneLabel, AThreadKeepsItsTidAndTheStartOfItsName) {
    const QFontMetrics fm(boldLaneFont());
    const int need = fm.horizontalAdvance(kKinetoThread);
    const int tail = fm.horizontalAdvance(kTail);
    for (int room : {need - 1, need - 30, need - 60,
                     tail + fm.horizontalAdvance(QStringLiteral("thread 2\u2026"))}) {
        const QString cut = elidedLaneLabel(kKinetoThread, fm, room);
        SCOPED_TRACE(cut.toStdString());
        EXPECT_TRUE(cut.endsWith(kEllipsis + kTail));
        EXPECT_LE(fm.horizontalAdvance(cut), room);
        const QString kept = cut.left(cut.size() - kTail.size() - 1);
        EXPECT_TRUE(kKinetoThread.startsWith(kept));
        // The longest start that fits: one more character would not.
        const QString longer = kKinetoThread.left(kept.size() + 1) + kEllipsis + kTail;
        EXPECT_GT(fm.horizontalAdvance(longer), room);
    }
    // 60 px short: the start of the thread's own name is still there.
    EXPECT_TRUE(elidedLaneLabel(kKinetoThread, fm, need - 60).startsWith(u"thread 2910249 (pt_"));
    // Too narrow for any of the name: cut at the end like any other label.
    const QString narrow = elidedLaneLabel(kKinetoThread, fm, tail);
    EXPECT_FALSE(narrow.endsWith(kTail));
    EXPECT_LE(fm.horizontalAdvance(narrow), tail);
}

TEST(ElidedLaneLabel, APinnedLanesPathKeepsBothEnds) {
    const QFontMetrics fm(boldLaneFont());
    const QString path = QStringLiteral("GPU 0 (NVIDIA A100-SXM4-80GB) / Stream 7 / Kernels");
    const QString cut = elidedLaneLabel(path, fm, fm.horizontalAdvance(path) - 40);
    EXPECT_TRUE(cut.startsWith(u"GPU 0")) << cut.toStdString();
    EXPECT_TRUE(cut.endsWith(u"Kernels")) << cut.toStdString();
}

// The column as painted, with and without the kept labels: the thread's row (at indent 1, after
// its arrow) shows the thread's name with its tid, and the process's row, which fits, all of it.
TEST(LaneHeaderPaint, AThreadRowShowsItsNameAndTid) {
    const auto trace = kinetoLikeTrace();
    LaneLayout layout;
    layout.setTrace(trace.get());
    ASSERT_GE(layout.rows().size(), 3u);
    ASSERT_EQ(layout.rows()[1].label, kKinetoThread);
    const QFont base(QStringLiteral("DejaVu Sans"), 9);
    QFont bold = laneFont(base);
    bold.setBold(true);
    // The thread's header: 4 px margin, 12 px of indent, a 12 px arrow and 2 px, 4 px at the end.
    const int room = kLaneHeaderWidth - (4 + 12 + 12 + 2) - 4;
    const QString want = elidedLaneLabel(kKinetoThread, QFontMetrics(bold), room);
    ASSERT_TRUE(want.startsWith(u"thread 2910249 (pt_")) << want.toStdString();
    HeaderLabels kept;
    for (HeaderLabels* labels : {static_cast<HeaderLabels*>(nullptr), &kept}) {
        const std::vector<QString> texts = paintedTexts(layout, base, labels);
        std::vector<QString> names;
        for (const QString& t : texts)
            if (t.size() > 1) // the arrows are texts too
                names.push_back(t);
        ASSERT_GE(names.size(), 3u);
        EXPECT_EQ(names[0], QStringLiteral("python3.10 [2910249]"));
        EXPECT_EQ(names[1], want);
        EXPECT_EQ(names[2], QStringLiteral("CUDA API"));
    }
}
