// SPDX-License-Identifier: MIT
#include "widgets/panels/rankspanel.h"

#include "model/itemmodels/reporttablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/jobreports.h"
#include "model/timeformat.h"
#include "widgets/panels/tablebehaviour.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStringBuilder>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

namespace strobe {

namespace {

enum AlignIndex : std::uint8_t { kWall, kStep, kCollective, kManual };

} // namespace

RanksPanel::RanksPanel(QWidget* parent)
    : QWidget(parent)
    , m_verdict(new QLabel(this))
    , m_align(new QComboBox(this))
    , m_step(new QSpinBox(this))
    , m_offsetRank(new QComboBox(this))
    , m_offsetEdit(new QLineEdit(this))
    , m_notes(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_ranks(new ReportTableModel(this))
    , m_steps(new ReportTableModel(this))
    , m_kinds(new ReportTableModel(this))
    , m_stragglers(new ReportTableModel(this))
    , m_warnings(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_verdict);

    auto* alignRow = new QHBoxLayout;
    alignRow->addWidget(new QLabel(tr("Align the ranks' clocks on"), this));
    m_align->setObjectName(QStringLiteral("alignment"));
    m_align->addItem(tr("the wall clock"));
    m_align->addItem(tr("the start of step"));
    m_align->addItem(tr("the first collective's end"));
    m_align->addItem(tr("offsets set by hand"));
    m_align->setToolTip(tr("The offset each rank's clock gets is in the Ranks table (Offset); "
                           "docs/JOBS.md, Clocks"));
    m_step->setRange(0, std::numeric_limits<int>::max());
    m_step->setEnabled(false);
    alignRow->addWidget(m_align);
    alignRow->addWidget(m_step);
    // Offsets by hand: a rank and its offset ("1.5 ms"), applied on Enter.
    m_offsetRank->setVisible(false);
    m_offsetEdit->setVisible(false);
    m_offsetEdit->setPlaceholderText(tr("offset, e.g. -1.5 ms"));
    m_offsetEdit->setToolTip(tr("The time added to the rank's clock to give the job's; Enter "
                                "applies it"));
    alignRow->addWidget(m_offsetRank);
    alignRow->addWidget(m_offsetEdit);
    alignRow->addStretch(1);
    layout->addLayout(alignRow);
    m_notes->setWordWrap(true);
    m_notes->hide();
    layout->addWidget(m_notes);

    addTable(m_ranks, tr("Ranks"));
    addTable(m_steps, tr("Slowest rank per step"));
    addTable(m_kinds, tr("Collectives"));
    addTable(m_stragglers, tr("Stragglers"));
    layout->addWidget(m_tabs, 1);
    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->hide();
    layout->addWidget(m_warnings);

    connect(m_align, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_step->setEnabled(index == kStep);
        m_offsetRank->setVisible(index == kManual);
        m_offsetEdit->setVisible(index == kManual);
        if (index == kManual) {
            m_shown.reset(); // leaving it asks for an alignment again
            showManualOffset();
            emit offsetsEdited();
        } else {
            emitAlignment();
        }
    });
    connect(m_offsetRank, &QComboBox::currentIndexChanged, this, [this] { showManualOffset(); });
    connect(m_offsetEdit, &QLineEdit::returnPressed, this, [this] {
        if (!setManualOffset(std::size_t(std::max(0, m_offsetRank->currentIndex())),
                             m_offsetEdit->text()))
            showManualOffset(); // not a time: the offset in force again
    });
    connect(m_step, &QSpinBox::valueChanged, this, [this] {
        if (m_align->currentIndex() == kStep)
            emitAlignment();
    });
}

QTableView* RanksPanel::addTable(ReportTableModel* model, const QString& title) {
    auto* view = new QTableView(m_tabs);
    auto* proxy = new QSortFilterProxyModel(view);
    proxy->setSourceModel(model);
    proxy->setSortRole(SortRole);
    view->setModel(proxy);
    setUpTable(view);
    makeSortable(view, -1, Qt::AscendingOrder);
    // The last column takes the rest of the width (fitColumns needs a real column to stretch).
    connect(model, &QAbstractItemModel::modelReset, view, [view, model] {
        if (const int columns = model->columnCount(); columns > 0)
            fitColumns(view, columns - 1);
    });
    m_tabs->addTab(view, title);
    return view;
}

Alignment RanksPanel::alignment() const {
    Alignment a;
    switch (m_align->currentIndex()) {
    case kStep:
        a.kind = Alignment::Kind::Step;
        a.step = std::uint64_t(m_step->value());
        break;
    case kCollective:
        a.kind = Alignment::Kind::Collective;
        break;
    default:
        break;
    }
    return a;
}

void RanksPanel::setAlignment(Alignment alignment) {
    const QSignalBlocker blockAlign(m_align);
    const QSignalBlocker blockStep(m_step);
    m_align->setCurrentIndex(alignment.kind == Alignment::Kind::Step         ? kStep
                             : alignment.kind == Alignment::Kind::Collective ? kCollective
                                                                             : kWall);
    m_step->setEnabled(alignment.kind == Alignment::Kind::Step);
    m_offsetRank->setVisible(false);
    m_offsetEdit->setVisible(false);
    if (alignment.kind == Alignment::Kind::Step)
        m_step->setValue(int(std::min<std::uint64_t>(alignment.step, INT_MAX)));
    emitAlignment();
}

std::optional<std::vector<TimeNs>> RanksPanel::manualOffsets() const {
    if (m_align->currentIndex() != kManual)
        return std::nullopt;
    return m_manual;
}

bool RanksPanel::setManualOffset(std::size_t rank, const QString& text) {
    const auto offset = parseTime(text.trimmed());
    if (!offset || rank >= m_manual.size())
        return false;
    m_manual[rank] = *offset;
    if (m_align->currentIndex() == kManual) {
        showManualOffset();
        emit offsetsEdited();
    }
    return true;
}

void RanksPanel::showManualOffset() {
    const int r = m_offsetRank->currentIndex();
    if (r >= 0 && std::size_t(r) < m_manual.size())
        m_offsetEdit->setText(formatDuration(m_manual[std::size_t(r)]));
}

void RanksPanel::emitAlignment() {
    const Alignment a = alignment();
    if (m_shown && a.kind == m_shown->kind && a.step == m_shown->step)
        return;
    m_shown = a;
    emit alignmentChanged(a);
}

void RanksPanel::setJob(const std::shared_ptr<const Job>& job,
                        const std::shared_ptr<const JobAnalysis>& analysis) {
    if (!job || !analysis) {
        m_job.reset();
        m_manual.clear();
        m_offsetRank->clear();
        m_verdict->clear();
        m_notes->hide();
        m_warnings->hide();
        for (ReportTableModel* m : {m_ranks, m_steps, m_kinds, m_stragglers}) {
            ReportTable empty;
            empty.columns = m->table().columns;
            m->setTable(std::move(empty));
        }
        return;
    }
    // A step alignment starts at the first step the lowest rank has.
    if (!job->ranks.empty() && !job->ranks.front().steps.empty() &&
        m_align->currentIndex() != kStep) {
        const QSignalBlocker block(m_step);
        m_step->setValue(
            int(std::min<std::uint64_t>(job->ranks.front().steps.front().number, INT_MAX)));
    }
    if (job != m_job) { // another job: its ranks to set offsets for
        m_job = job;
        const QSignalBlocker block(m_offsetRank);
        m_offsetRank->clear();
        for (const RankSummary& s : job->ranks)
            m_offsetRank->addItem(tr("rank %1").arg(s.rank));
    }
    // Setting offsets by hand starts from those in force.
    if (m_align->currentIndex() != kManual || m_manual.size() != job->ranks.size())
        m_manual = analysis->offsets;
    showManualOffset();
    m_verdict->setText(stragglerVerdict(*job, *analysis) % u'.');
    QStringList notes = analysis->notes;
    if (const QString unmatched = unmatchedSentence(*job, *analysis); !unmatched.isEmpty())
        notes << unmatched;
    m_notes->setText(notes.join(u'\n'));
    m_notes->setVisible(!notes.isEmpty());
    ReportTable ranks = jobRanksTable(*job, *analysis);
    // Each rank's host after its GPU, when any summary records one (RankSummary::host); the
    // CLI's ranks table keeps its columns.
    if (std::any_of(job->ranks.begin(), job->ranks.end(),
                    [](const RankSummary& s) { return !s.host.isEmpty(); })) {
        const auto at = std::size_t(ranks.columns.indexOf(QStringLiteral("gpu")) + 1);
        ranks.columns.insert(qsizetype(at), QStringLiteral("host"));
        for (std::size_t r = 0; r < ranks.rows.size() && r < job->ranks.size(); ++r) {
            const QString& host = job->ranks[r].host;
            ranks.rows[r].insert(ranks.rows[r].begin() +
                                     std::ptrdiff_t(std::min(at, ranks.rows[r].size())),
                                 host.isEmpty() ? ReportCell::null() : ReportCell::string(host));
        }
    }
    m_ranks->setTable(std::move(ranks));
    m_steps->setTable(slowestRankTable(*job, *analysis));
    m_kinds->setTable(collectiveKindsTable(*job, *analysis));
    m_stragglers->setTable(jobStragglersTable(*analysis));
    if (job->warnings.isEmpty()) {
        m_warnings->hide();
    } else {
        m_warnings->setText(tr("%n warning(s):", nullptr, int(job->warnings.size())) % u'\n' %
                            job->warnings.join(u'\n'));
        m_warnings->show();
    }
}

QString RanksPanel::verdict() const {
    return m_verdict->text();
}

QString RanksPanel::warningsText() const {
    return m_warnings->isHidden() ? QString() : m_warnings->text();
}

ReportTable RanksPanel::slowestRankTable(const Job& job, const JobAnalysis& a) {
    // step -> rank index -> the others' wait on the collectives it arrived last at.
    std::map<std::uint64_t, std::map<std::uint32_t, TimeNs>> caused;
    for (std::size_t m = 0; m < a.timings.size() && m < a.match.matched.size(); ++m) {
        const CollectiveTiming& t = a.timings[m];
        if (!t.step)
            continue;
        TimeNs others = 0;
        for (const TimeNs w : t.wait)
            others += w;
        caused[*t.step][a.match.matched[m].calls[t.lastArriver].first] += others;
    }
    ReportTable table;
    table.columns = {QStringLiteral("step"), QStringLiteral("slowest_rank"),
                     QStringLiteral("wait_caused_ns")};
    for (const auto& [step, byRank] : caused) {
        std::optional<std::uint32_t> slowest;
        TimeNs most = 0;
        for (const auto& [rank, wait] : byRank)
            if (wait > most) { // ascending ranks: the lowest among equals stays
                most = wait;
                slowest = rank;
            }
        table.rows.push_back({ReportCell::number(step),
                              slowest ? ReportCell::number(std::uint64_t(job.ranks[*slowest].rank))
                                      : ReportCell::null(),
                              ReportCell::number(std::int64_t(most))});
    }
    return table;
}

ReportTable RanksPanel::collectiveKindsTable(const Job& job, const JobAnalysis& a) {
    struct Sums {
        std::uint64_t calls = 0;
        std::optional<std::uint64_t> bytes;
        TimeNs wait = 0;
        TimeNs transfer = 0;
    };
    std::map<QString, Sums> kinds;
    for (std::size_t m = 0; m < a.timings.size() && m < a.match.matched.size(); ++m) {
        const MatchedCollective& mc = a.match.matched[m];
        const CollectiveTiming& t = a.timings[m];
        Sums& s = kinds[mc.kind];
        ++s.calls;
        for (std::size_t i = 0; i < mc.calls.size(); ++i) {
            const auto [rank, call] = mc.calls[i];
            if (const auto b = job.ranks[rank].collectives[call].bytes)
                s.bytes = s.bytes.value_or(0) + *b;
            s.wait += t.wait[i];
            s.transfer += t.transfer;
        }
    }
    ReportTable table;
    table.columns = {QStringLiteral("kind"), QStringLiteral("instances"),
                     QStringLiteral("total_bytes"), QStringLiteral("wait_ns"),
                     QStringLiteral("transfer_ns")};
    for (const auto& [kind, s] : kinds)
        table.rows.push_back({ReportCell::string(kind), ReportCell::number(s.calls),
                              s.bytes ? ReportCell::number(*s.bytes) : ReportCell::null(),
                              ReportCell::number(std::int64_t(s.wait)),
                              ReportCell::number(std::int64_t(s.transfer))});
    return table;
}

} // namespace strobe
