// SPDX-License-Identifier: MIT
#pragma once

#include "model/trace.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace strobe {

class OperatorForest;

// An event a detail names (an operator of a kernel's launching chain): the pane shows its text
// as a link that selects `range` on the timeline.
struct DetailLink {
    QString text;
    EventRef event;
    TimeRange range;
};

struct DetailItem {
    QString key;
    QString value; // the plain text; with links, their texts joined by kDetailLinkSeparator
    std::vector<DetailLink> links = {};
};

// Between the links of one item: the chain reads innermost first.
inline constexpr char16_t kDetailLinkSeparator[] = u" <- ";

struct DetailSection {
    QString title;
    std::vector<DetailItem> items;
};

// Everything the detail pane shows about one event, as plain text so that it can be copied.
struct EventDetails {
    QString title; // "Kernel par_ranged2d_kernel"; empty when nothing is described
    std::vector<DetailSection> sections;
    QStringList warnings; // plain sentences ("The grid has 4 blocks but the GPU has 108 SMs...")
    bool isEmpty() const { return title.isEmpty(); }
    // The value of `key` in the first section titled `section`; empty when absent.
    QString value(const QString& section, const QString& key) const;
    // "title\n\n[Section]\nkey: value\n...\nWarnings:\n- ...\n": what Copy puts on the clipboard.
    QString toText() const;
};

// Describes the event at `ref` (any lane kind); empty details for an invalid ref. With
// `operators` (the trace's forest, when it has operators), a kernel, memcpy or memset also
// names the chain of operators that launched it and the Python frames of the launching call.
EventDetails describeEvent(const Trace& trace, EventRef ref,
                           const OperatorForest* operators = nullptr);

} // namespace strobe
