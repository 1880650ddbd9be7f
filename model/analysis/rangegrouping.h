// SPDX-License-Identifier: MIT
#pragma once

#include "model/rangename.h"

#include <QString>
#include <QStringView>

namespace strobe {

// groupedRangeName (model/rangename.h) cuts PyTorch's per-call suffixes off a range name.

// How range tables name their rows: Grouped (groupedRangeName, the default everywhere) or Raw
// (the recorded text, one row per distinct name: PyTorch's per-call ids make that one per call).
enum class RangeNaming { Grouped, Raw };

// `name` as `naming` says: groupedRangeName(name) or name itself.
QString rangeName(QStringView name, RangeNaming naming);

// The row a statistics table files a range under: rangeName, and, when grouped, PyTorch's steps
// as one family ("ProfilerStep#550" is a call of "ProfilerStep", as each operator call is one of
// its operator), so the table shows the step's instances instead of one row per step.
QString summaryRangeName(QStringView name, RangeNaming naming);

} // namespace strobe
