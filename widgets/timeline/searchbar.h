// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QFrame>
#include <atomic>
#include <cstdint>
#include <memory>

class QLabel;
class QLineEdit;
class QToolButton;

namespace strobe {

class BackgroundTask;
class EventSearchResult;
class ViewState;

// The timeline's search bar (Ctrl+F): finds events by name (searchEvents,
// model/analysis/eventsearch.h) as the text is typed, shows the match count ("12 of 3,456"),
// and steps through the matches in time order (Enter / Shift+Enter in it, F3 / Shift+F3),
// wrapping at the ends. The first step goes to the first match at or after the start of the
// visible range (backwards: the last before its end). Escape closes it. It only finds and
// counts: the view that owns it highlights result() and moves to each matchChosen().
class SearchBar final : public QFrame {
    Q_OBJECT
public:
    // Traces of at least this many events are searched on a worker (cancelled when the text
    // changes again); smaller ones at once.
    static constexpr std::uint64_t kWorkerEvents = 200'000;

    SearchBar(ViewState* state, QWidget* parent);
    ~SearchBar() override;

    // Shows the bar with the keyboard focus in its text, all of it selected (Ctrl+F).
    void open();
    // Hides the bar, drops the highlights and gives the focus back to `focusAfter` (Escape).
    void dismiss();
    void setFocusAfterDismiss(QWidget* w) { m_focusAfter = w; }
    // The next / previous match in time order, wrapping; nothing without matches. While a
    // search runs, the step is taken when it ends.
    void findNext();
    void findPrevious();

    // The latest finished search of the current text (nullptr: none yet, or empty text).
    const EventSearchResult* result() const { return m_result.get(); }
    // The match last stepped to (or selected on the timeline); invalid before the first step.
    EventRef current() const { return m_current; }
    bool isSearching() const { return m_searching; }
    // The count label's text: "12 of 3,456", "3,456 matches", "No match", "Searching…", or why
    // the pattern is not valid.
    QString countText() const;
    QLineEdit* textField() const { return m_text; }
    QToolButton* regexButton() const { return m_regex; }
    QToolButton* caseButton() const { return m_case; }

signals:
    // result() changed (a new search finished, the bar closed): the highlights follow it.
    void resultChanged();
    // A step chose `ref`: show and select it.
    void matchChosen(strobe::EventRef ref);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void startSearch();
    void deliver(std::shared_ptr<const EventSearchResult> result);
    void step(bool forward);
    void updateCount();

    ViewState* m_state;
    QLineEdit* m_text = nullptr;
    QToolButton* m_regex = nullptr;
    QToolButton* m_case = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QToolButton* m_close = nullptr;
    QLabel* m_count = nullptr;
    QWidget* m_focusAfter = nullptr;
    BackgroundTask* m_task = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<const EventSearchResult> m_result;
    EventRef m_current;
    bool m_searching = false;
    // A step asked for while the search ran: +1 next, -1 previous, 0 none.
    int m_pendingStep = 0;
};

} // namespace strobe
