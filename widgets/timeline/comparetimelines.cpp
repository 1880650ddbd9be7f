// SPDX-License-Identifier: MIT
#include "widgets/timeline/comparetimelines.h"

#include "model/trace.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timelinelink.h"
#include "widgets/viewstate.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace strobe {

CompareTimelines::CompareTimelines(TimelineView* a, ViewState* stateB, QWidget* parent)
    : QWidget(parent)
    , m_a(a)
    , m_stateB(stateB)
    , m_b(new TimelineView(stateB, this))
    , m_link(new TimelineLink(a->viewState(), stateB, this))
    , m_split(new QSplitter(Qt::Vertical, this))
    , m_bar(new QWidget(this))
    , m_titleA(new QLabel(this))
    , m_titleB(new QLabel(this))
    , m_rangeLabel(new QLabel(this))
    , m_instance(new QSpinBox(this))
    , m_ownStarts(new QCheckBox(tr("Own starts"), this)) {
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_rangeLabel);
    bar->addWidget(m_instance);
    bar->addWidget(m_ownStarts);
    bar->addStretch(1);
    m_instance->setPrefix(tr("instance "));
    m_ownStarts->setToolTip(tr("Show both traces from their own first event"));
    m_ownStarts->setChecked(true);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(m_titleA);
    topLayout->addWidget(m_a, 1);
    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->setSpacing(0);
    bottomLayout->addWidget(m_titleB);
    bottomLayout->addWidget(m_b, 1);
    m_split->addWidget(top);
    m_split->addWidget(bottom);
    m_split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_bar);
    layout->addWidget(m_split, 1);
    for (QLabel* l : {m_titleA, m_titleB}) {
        l->setContentsMargins(6, 2, 6, 2);
        l->setTextFormat(Qt::PlainText);
    }

    connect(m_ownStarts, &QCheckBox::toggled, this, [this](bool own) {
        if (own)
            m_link->alignStarts();
        else
            alignOnInstance(m_instance->value() - 1);
        updateAlignControls();
    });
    connect(m_instance, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_ownStarts->isChecked())
            alignOnInstance(v - 1);
    });
    setComparing(false);
}

CompareTimelines::~CompareTimelines() = default;

void CompareTimelines::setComparing(bool on, const QString& titleA, const QString& titleB) {
    m_titleA->setText(tr("A (baseline): %1").arg(titleA));
    m_titleB->setText(tr("B: %1").arg(titleB));
    m_titleA->setVisible(on);
    m_split->widget(1)->setVisible(on);
    m_bar->setVisible(on);
    if (on)
        m_split->setSizes({1, 1});
    updateAlignControls();
}

bool CompareTimelines::isComparing() const {
    return m_split->widget(1)->isVisibleTo(this);
}

void CompareTimelines::setIterations(const QString& name, std::vector<TimeNs> startsA,
                                     std::vector<TimeNs> startsB) {
    m_rangeName = name;
    m_startsA = std::move(startsA);
    m_startsB = std::move(startsB);
    updateAlignControls();
}

void CompareTimelines::updateAlignControls() {
    const int n = int(std::min(m_startsA.size(), m_startsB.size()));
    const bool any = n > 0 && !m_rangeName.isEmpty();
    m_rangeLabel->setText(any ? tr("Align on '%1'").arg(m_rangeName)
                              : tr("No iteration range to align on"));
    {
        const QSignalBlocker block(m_instance);
        m_instance->setRange(1, std::max(1, n));
        m_instance->setSuffix(tr(" of %1").arg(n));
    }
    m_instance->setEnabled(any && !m_ownStarts->isChecked());
    m_ownStarts->setEnabled(any);
}

bool CompareTimelines::alignOnInstance(int k) {
    if (k < 0 || std::size_t(k) >= m_startsA.size() || std::size_t(k) >= m_startsB.size())
        return false;
    {
        const QSignalBlocker block(m_ownStarts);
        m_ownStarts->setChecked(false);
    }
    {
        const QSignalBlocker block(m_instance);
        m_instance->setValue(k + 1);
    }
    m_link->alignAt(m_startsA[std::size_t(k)], m_startsB[std::size_t(k)]);
    updateAlignControls();
    return true;
}

void CompareTimelines::alignOwnStarts() {
    m_ownStarts->setChecked(true);
    m_link->alignStarts();
}

bool CompareTimelines::alignsOwnStarts() const {
    return m_ownStarts->isChecked();
}

void CompareTimelines::showPair(EventRef a, EventRef b) {
    const Trace* ta = m_a->viewState()->trace();
    const Trace* tb = m_stateB->trace();
    if (a.isValid() && ta)
        m_a->revealEvent(a);
    if (b.isValid() && tb) {
        if (a.isValid() && ta)
            m_link->alignAt(ta->lane(a.lane).start(a.index), tb->lane(b.lane).start(b.index));
        m_b->revealEvent(b); // keeps the linked zoom: the event is now in view
    }
}

} // namespace strobe
