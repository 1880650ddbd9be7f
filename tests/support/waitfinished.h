// SPDX-License-Identifier: MIT
#pragma once

// For the screenshot programs and GUI tests: panels and the timeline compute on worker threads
// and show "Computing…" meanwhile; a picture taken then shows unfinished content.

#include <QCoreApplication>
#include <QList>
#include <QTest>
#include <QWidget>

namespace strobe::test {

template <class Widget> bool anyBusy(QWidget* root) {
    QList<Widget*> all = root->findChildren<Widget*>();
    if (auto* self = qobject_cast<Widget*>(root))
        all << self;
    for (const Widget* w : all) {
        if constexpr (requires { w->isComputing(); }) {
            if (w->isComputing())
                return true;
        } else {
            if (!w->isLevelOfDetailReady()) // the timeline's summaries and utilisation
                return true;
        }
    }
    return false;
}

// Waits, processing events, until no widget of the given types under (or being) `root` is
// still computing; false on timeout. Example:
//   waitUntilFinished<KernelTableWidget, DetailPane, TimelineView>(&window)
template <class... Widgets> bool waitUntilFinished(QWidget* root, int timeoutMs = 60000) {
    const bool done =
        QTest::qWaitFor([root] { return !(anyBusy<Widgets>(root) || ...); }, timeoutMs);
    for (int i = 0; i < 3; ++i) // deliver the repaints the results asked for
        QCoreApplication::processEvents();
    return done;
}

} // namespace strobe::test
