// SPDX-License-Identifier: MIT
#pragma once

#include "model/trace.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace strobe {

struct DetailItem {
    QString key;
    QString value;
};

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

// Describes the event at `ref` (any lane kind); empty details for an invalid ref.
EventDetails describeEvent(const Trace& trace, EventRef ref);

} // namespace strobe
