// SPDX-License-Identifier: MIT
#include "widgets/timeline/searchbar.h"

#include "model/analysis/eventsearch.h"
#include "model/trace.h"
#include "widgets/backgroundtask.h"
#include "widgets/viewstate.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStringBuilder>
#include <QStyle>
#include <QToolButton>

namespace strobe {

namespace {

QString grouped(std::size_t n) {
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qulonglong(n));
}

QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::NoFocus); // the keys stay in the text field
    return b;
}

bool isEnter(int key) {
    return key == Qt::Key_Return || key == Qt::Key_Enter;
}

} // namespace

SearchBar::SearchBar(ViewState* state, QWidget* parent)
    : QFrame(parent)
    , m_state(state) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_task = new BackgroundTask(this);
    m_text = new QLineEdit(this);
    m_text->setPlaceholderText(tr("Find events by name"));
    m_text->setClearButtonEnabled(true);
    m_text->setMinimumWidth(220);
    m_text->installEventFilter(this);
    m_case = toolButton(this, QStringLiteral("Aa"), tr("Match case"));
    m_case->setCheckable(true);
    m_regex = toolButton(this, QStringLiteral(".*"), tr("Regular expression"));
    m_regex->setCheckable(true);
    m_count = new QLabel(this);
    m_count->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("88,888 of 88,888")));
    m_previous = toolButton(this, QString(), tr("Previous match (Shift+Enter, Shift+F3)"));
    m_previous->setArrowType(Qt::UpArrow);
    m_next = toolButton(this, QString(), tr("Next match (Enter, F3)"));
    m_next->setArrowType(Qt::DownArrow);
    m_close = toolButton(this, QString(), tr("Close (Esc)"));
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_case);
    layout->addWidget(m_regex);
    layout->addSpacing(4);
    layout->addWidget(m_count);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_close);
    setFocusProxy(m_text);

    connect(m_text, &QLineEdit::textChanged, this, &SearchBar::startSearch);
    connect(m_case, &QToolButton::toggled, this, &SearchBar::startSearch);
    connect(m_regex, &QToolButton::toggled, this, &SearchBar::startSearch);
    connect(m_previous, &QToolButton::clicked, this, &SearchBar::findPrevious);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::findNext);
    connect(m_close, &QToolButton::clicked, this, &SearchBar::dismiss);
    connect(m_state, &ViewState::traceChanged, this, [this] {
        m_current = {};
        m_pendingStep = 0;
        m_result.reset(); // the old trace's matches mean nothing in the new one
        startSearch();
    });
    // Clicking a match on the timeline makes it the current one: the next step goes on from it.
    connect(m_state, &ViewState::selectionChanged, this, [this](EventRef ref) {
        if (m_result && ref != m_current && m_result->contains(ref)) {
            m_current = ref;
            updateCount();
        }
    });
    hide();
    updateCount();
}

SearchBar::~SearchBar() {
    if (m_cancel)
        m_cancel->store(true);
}

void SearchBar::open() {
    const bool wasHidden = isHidden();
    show();
    raise();
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
    if (wasHidden)
        startSearch(); // the trace may have changed while the bar was closed
}

void SearchBar::dismiss() {
    if (m_cancel)
        m_cancel->store(true);
    m_task->cancel();
    m_searching = false;
    m_pendingStep = 0;
    hide();
    emit resultChanged();
    if (m_focusAfter)
        m_focusAfter->setFocus(Qt::OtherFocusReason);
}

void SearchBar::findNext() {
    step(true);
}

void SearchBar::findPrevious() {
    step(false);
}

void SearchBar::startSearch() {
    if (m_cancel)
        m_cancel->store(true); // a search still running for older text stops at its next lane
    m_cancel.reset();
    const std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    const EventSearchQuery query{m_text->text(), m_regex->isChecked(), m_case->isChecked()};
    if (!trace || query.text.isEmpty() || isHidden()) {
        m_task->cancel();
        deliver(nullptr);
        return;
    }
    std::uint64_t events = 0;
    for (const Lane& l : trace->lanes())
        events += l.size();
    // The result points into the trace: it keeps the trace alive as long as it lives.
    const auto share = [trace](EventSearchResult r) {
        auto owned = std::make_shared<std::pair<std::shared_ptr<const Trace>, EventSearchResult>>(
            trace, std::move(r));
        return std::shared_ptr<const EventSearchResult>(owned, &owned->second);
    };
    if (events < kWorkerEvents) {
        m_task->cancel();
        deliver(share(searchEvents(*trace, query)));
        return;
    }
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_searching = true;
    updateCount();
    m_task->start([trace, query, share,
                   cancel = m_cancel] { return share(searchEvents(*trace, query, cancel.get())); },
                  [this](std::shared_ptr<const EventSearchResult> r) {
                      if (!r->wasCancelled())
                          deliver(std::move(r));
                  });
}

void SearchBar::deliver(std::shared_ptr<const EventSearchResult> result) {
    m_searching = false;
    m_result = std::move(result);
    if (!m_result || !m_result->contains(m_current))
        m_current = {};
    updateCount();
    emit resultChanged();
    if (const int pending = std::exchange(m_pendingStep, 0); pending != 0)
        step(pending > 0);
}

void SearchBar::step(bool forward) {
    if (m_searching) {
        m_pendingStep = forward ? 1 : -1;
        return;
    }
    if (!m_result || m_result->isEmpty())
        return;
    const EventSearchResult& r = *m_result;
    EventRef to;
    if (m_current.isValid()) {
        to = forward ? r.next(m_current) : r.previous(m_current);
    } else {
        // From where the user looks: the first match in view onwards, or the last before its end.
        const TimeRange v = m_state->visibleRange();
        if (forward) {
            to = r.firstStartingAtOrAfter(v.start);
        } else if (const EventRef after = r.firstStartingAtOrAfter(v.end); after.isValid()) {
            to = r.previous(after);
        }
    }
    if (!to.isValid())
        to = forward ? r.first() : r.last(); // wrap
    m_current = to;
    updateCount();
    emit matchChosen(to);
}

QString SearchBar::countText() const {
    if (m_text->text().isEmpty())
        return {};
    if (m_searching)
        return tr("Searching\u2026");
    if (!m_result)
        return {};
    if (const auto& e = m_result->patternError())
        return tr("Not a valid regular expression: %1 (at character %2)")
            .arg(e->reason)
            .arg(e->offset + 1);
    const std::size_t n = m_result->count();
    if (n == 0)
        return tr("No match");
    if (m_current.isValid())
        return tr("%1 of %2").arg(grouped(m_result->rankOf(m_current)), grouped(n));
    return n == 1 ? tr("1 match") : tr("%1 matches").arg(grouped(n));
}

void SearchBar::updateCount() {
    const QString text = countText();
    m_count->setText(text);
    const bool bad = m_result && m_result->patternError();
    QPalette p = palette();
    if (bad)
        p.setColor(QPalette::WindowText, QColor(0xd0, 0x30, 0x30));
    m_count->setPalette(p);
    m_count->setToolTip(bad ? text : QString());
    const bool any = m_result && !m_result->isEmpty();
    m_previous->setEnabled(any || m_searching);
    m_next->setEnabled(any || m_searching);
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_text)
        return QFrame::eventFilter(watched, event);
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const bool ours = isEnter(key->key()) || key->key() == Qt::Key_Escape;
    if (!ours)
        return false;
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // Enter and Escape are the bar's, whatever the window binds them to
        return true;
    }
    if (key->key() == Qt::Key_Escape)
        dismiss();
    else if (key->modifiers() & Qt::ShiftModifier)
        findPrevious();
    else
        findNext();
    return true;
}

} // namespace strobe
