// SPDX-License-Identifier: MIT
// The one list of controls (keybindings.h) against what the lane canvas does and against
// docs/TIMELINE.md, which must hold the table generated from it.
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/timeline/keybindings.h"
#include "widgets/timeline/timelineview.h"
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
    const QString s = k.toString(QKeySequence::PortableText);
    return names.value(s, s);
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

// The list says W / S zoom at the mouse when it is over the lanes, else at the middle.
TEST(KeyBindings, KeyboardZoomAnchorsAtTheMouse) {
    View v;
    v.state.setVisibleRange({0, 10000}, false);
    const TimeRange before = v.state.visibleRange();
    const TimeNs mouse = before.start + before.duration() / 4;
    v.state.setCursorTime(mouse);
    canvasAccepts(v.view.canvas(), Qt::Key_W);
    TimeRange r = v.state.visibleRange();
    EXPECT_LT(r.duration(), before.duration());
    // The time under the mouse keeps its place: a quarter from the left edge.
    EXPECT_NEAR(double(mouse - r.start) / double(r.duration()), 0.25, 0.01)
        << before.start << ".." << before.end << " -> " << r.start << ".." << r.end;

    v.state.setVisibleRange({2000, 4000}, false);
    v.state.setCursorTime(std::nullopt);
    canvasAccepts(v.view.canvas(), Qt::Key_S);
    r = v.state.visibleRange();
    EXPECT_GT(r.duration(), 2000);
    EXPECT_NEAR(double(r.start + r.end) / 2.0, 3000.0, 20.0); // around the middle
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
