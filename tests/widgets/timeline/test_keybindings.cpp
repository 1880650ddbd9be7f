// SPDX-License-Identifier: MIT
// The one list of controls (keybindings.h) against what the lane canvas does and against
// docs/TIMELINE.md, which must hold the table generated from it.
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/timeline/keybindings.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timeline/timeruler.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QFile>
#include <QKeyEvent>
#include <QMap>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// How the list spells the keys whose QKeySequence names are terse.
QString spoken(const QKeySequence& k) {
    static const QMap<QString, QString> names{
        {QStringLiteral("PgUp"), QStringLiteral("Page Up")},
        {QStringLiteral("PgDown"), QStringLiteral("Page Down")},
        {QStringLiteral("Return"), QStringLiteral("Enter")}};
    QString s = k.toString(QKeySequence::PortableText);
    if (names.contains(s))
        return names.value(s);
    return s.replace(QStringLiteral("Return"), QStringLiteral("Enter")); // "Shift+Return"
}

bool canvasAccepts(QWidget* canvas, int key) {
    QKeyEvent e(QEvent::KeyPress, key, Qt::NoModifier);
    QApplication::sendEvent(canvas, &e);
    return e.isAccepted();
}

struct View {
    ViewState state;
    TimelineView view{&state};
    View() {
        state.setTrace(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
        view.resize(1200, 600);
        view.show(); // lays out the canvas, whose width the keyboard anchor uses
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        view.waitForLevelOfDetail();
    }
};

} // namespace

TEST(KeyBindings, EveryListedKeyIsNamedInItsRow) {
    for (const KeyBinding& b : keyBindings()) {
        const QString keyboard = QLatin1String(b.keyboard);
        EXPECT_EQ(keyboard.isEmpty(), b.keys.isEmpty()) << b.action;
        for (const QKeySequence& k : b.keys)
            EXPECT_TRUE(keyboard.contains(spoken(k)))
                << b.action << ": " << spoken(k).toStdString();
        EXPECT_FALSE(QLatin1String(b.action).isEmpty());
        EXPECT_FALSE(QLatin1String(b.mouse).isEmpty() && keyboard.isEmpty()) << b.action;
    }
}

TEST(KeyBindings, TheCanvasHandlesExactlyTheListedKeys) {
    View v;
    QList<int> listed;
    for (const KeyBinding& b : keyBindings()) {
        if (b.scope != KeyBinding::Scope::Timeline)
            continue;
        for (const QKeySequence& k : b.keys)
            listed << k[0].key();
    }
    ASSERT_EQ(listed.size(), 17);
    // The search bar's keys that reach the lanes: F3 is a shortcut of the view around them.
    for (const KeyBinding& b : keyBindings()) {
        if (b.scope != KeyBinding::Scope::Search)
            continue;
        for (const QKeySequence& k : b.keys) {
            if (k[0].keyboardModifiers() == Qt::NoModifier || k[0].key() == Qt::Key_F3)
                listed << k[0].key();
        }
    }
    QList<int> candidates = listed;
    for (int k = Qt::Key_A; k <= Qt::Key_Z; ++k)
        candidates << k;
    for (int k = Qt::Key_F1; k <= Qt::Key_F12; ++k)
        candidates << k;
    for (int k = Qt::Key_0; k <= Qt::Key_9; ++k)
        candidates << k;
    // (Tab is left out: QWidget moves the focus with it.)
    candidates << Qt::Key_Escape << Qt::Key_Backspace << Qt::Key_Return << Qt::Key_Enter
               << Qt::Key_Insert << Qt::Key_Delete << Qt::Key_Home << Qt::Key_End << Qt::Key_Left
               << Qt::Key_Up << Qt::Key_Right << Qt::Key_Down << Qt::Key_PageUp << Qt::Key_PageDown
               << Qt::Key_Space << Qt::Key_Plus << Qt::Key_Minus;
    for (int k : candidates) {
        EXPECT_EQ(canvasAccepts(v.view.canvas(), k), listed.contains(k))
            << QKeySequence(k).toString().toStdString();
    }
}

// The canvas takes what a key does from the list: one action per key of a Timeline binding.
TEST(KeyBindings, EachTimelineKeyNamesTheActionTheCanvasTakes) {
    for (const KeyBinding& b : keyBindings()) {
        if (b.scope == KeyBinding::Scope::Timeline)
            EXPECT_EQ(b.actions.size(), b.keys.size()) << b.action;
        else
            EXPECT_TRUE(b.actions.isEmpty()) << b.action;
    }
    using A = TimelineAction;
    EXPECT_EQ(timelineKeyAction(Qt::Key_W), A::ZoomIn);
    EXPECT_EQ(timelineKeyAction(Qt::Key_Down), A::ZoomOut);
    EXPECT_EQ(timelineKeyAction(Qt::Key_Left), A::PanLeft);
    EXPECT_EQ(timelineKeyAction(Qt::Key_D), A::PanRight);
    EXPECT_EQ(timelineKeyAction(Qt::Key_PageDown), A::ScrollDown);
    EXPECT_EQ(timelineKeyAction(Qt::Key_F), A::FitAll);
    EXPECT_EQ(timelineKeyAction(Qt::Key_Backspace), A::UndoZoom);
    EXPECT_EQ(timelineKeyAction(Qt::Key_Enter), A::ZoomToMeasuredRange);
    EXPECT_EQ(timelineKeyAction(Qt::Key_Escape), A::ClearSelection);
    EXPECT_EQ(timelineKeyAction(Qt::Key_C), std::nullopt); // Ctrl+C is the window's
    EXPECT_EQ(timelineKeyAction(Qt::Key_X), std::nullopt);
}

// The list says W / S zoom at the mouse when it is over the lanes or the ruler, else at the
// middle (issue #14 item 14; Perfetto does the same).
TEST(KeyBindings, KeyboardZoomAnchorsAtTheMouse) {
    View v;
    QWidget* canvas = v.view.canvas();
    const int w = canvas->width();
    const auto zoomKeepsAt = [&](int key, double fraction) {
        const TimeRange before = v.state.visibleRange();
        const TimeNs anchor = before.start + TimeNs(double(before.duration()) * fraction);
        canvasAccepts(canvas, key);
        const TimeRange r = v.state.visibleRange();
        EXPECT_NE(r.duration(), before.duration());
        // The time at the anchor keeps its place.
        EXPECT_NEAR(double(anchor - r.start) / double(r.duration()), fraction, 0.01)
            << before.start << ".." << before.end << " -> " << r.start << ".." << r.end;
    };
    v.state.setVisibleRange({0, 10000}, false);
    QTest::mouseMove(canvas, QPoint(w / 4, 40)); // over the lanes, a quarter from the left
    zoomKeepsAt(Qt::Key_W, 0.25);
    QTest::mouseMove(v.view.ruler(), QPoint(3 * w / 4, 10)); // over the ruler
    zoomKeepsAt(Qt::Key_W, 0.75);
    // Over the header column: the mouse is not over the timeline's time axis.
    QTest::mouseMove(v.view.headerColumn(), QPoint(20, 40));
    EXPECT_FALSE(v.view.pointerX());
    zoomKeepsAt(Qt::Key_W, 0.5);
    // A cursor time that another view set (a linked timeline, the overview's "show the
    // moment") is not the mouse: the zoom stays at the middle.
    v.state.setVisibleRange({2000, 4000}, false);
    v.state.setCursorTime(2500);
    zoomKeepsAt(Qt::Key_W, 0.5);
}

// Issue #14 item 11: the ruler's cursor label reads the time under the mouse, also after keys
// moved the view under a still mouse.
TEST(KeyBindings, TheCursorTimeFollowsAStillMouseWhenTheViewMoves) {
    View v;
    QWidget* canvas = v.view.canvas();
    v.state.setVisibleRange({0, 10000}, false);
    const QPoint at(canvas->width() / 3, 40);
    QTest::mouseMove(canvas, at);
    ASSERT_EQ(v.state.cursorTime(), v.view.mapping().toTime(at.x()));
    for (int key :
         {Qt::Key_W, Qt::Key_W, Qt::Key_D, Qt::Key_A, Qt::Key_S, Qt::Key_Backspace, Qt::Key_Home}) {
        const std::optional<TimeNs> before = v.state.cursorTime();
        const TimeRange range = v.state.visibleRange();
        canvasAccepts(canvas, key);
        ASSERT_NE(v.state.visibleRange(), range) << QKeySequence(key).toString().toStdString();
        EXPECT_EQ(v.state.cursorTime(), v.view.mapping().toTime(at.x()))
            << QKeySequence(key).toString().toStdString();
        if (key == Qt::Key_D || key == Qt::Key_Home) {
            EXPECT_NE(v.state.cursorTime(), before) << "the time under the mouse changed";
        }
    }
    // Over the ruler the same; leaving the timeline clears it.
    QTest::mouseMove(v.view.ruler(), QPoint(at.x(), 10));
    canvasAccepts(canvas, Qt::Key_D);
    EXPECT_EQ(v.state.cursorTime(), v.view.mapping().toTime(at.x()));
    QTest::mouseMove(v.view.headerColumn(), QPoint(20, 40));
    EXPECT_EQ(v.state.cursorTime(), std::nullopt);
}

TEST(KeyBindings, TimelineMdHoldsTheGeneratedTable) {
    QFile f(QStringLiteral(STROBE_SOURCE_DIR "/docs/TIMELINE.md"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString doc = QString::fromUtf8(f.readAll());
    const QString begin = QStringLiteral("<!-- key-bindings:begin");
    const QString end = QStringLiteral("<!-- key-bindings:end -->");
    const qsizetype b = doc.indexOf(begin);
    ASSERT_GE(b, 0) << "docs/TIMELINE.md lacks the key-bindings:begin marker";
    const qsizetype tableStart = doc.indexOf(u'\n', b) + 1;
    const qsizetype e = doc.indexOf(end, tableStart);
    ASSERT_GT(e, tableStart);
    EXPECT_EQ(doc.mid(tableStart, e - tableStart).toStdString(),
              keyBindingsMarkdown().toStdString())
        << "regenerate the table with build/release/tests/widgets/timeline/keybindings_markdown";
}
