// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringView>

namespace strobe {

// The name NVTX and user-annotation ranges are grouped under when many instances of one
// operation carry per-call suffixes. PyTorch's emit_nvtx (and record_function with shapes)
// appends, in this order, ", seq = N", ", op_id = N", ", sizes = [...]" and
// ", input_op_ids = [...]" to the operator name: "aten::mul, seq = 12, op_id = 345,
// sizes = [[64, 3]]" groups as "aten::mul". The name is cut at the first of these suffixes;
// names without one come back unchanged (ProfilerStep#3 stays itself: it is an iteration, not a
// per-call suffix). Used by the comparison and by every table that groups ranges by name.
QString groupedRangeName(QStringView name);

// How range tables name their rows: Grouped (groupedRangeName, the default everywhere) or Raw
// (the recorded text, one row per distinct name: PyTorch's per-call ids make that one per call).
enum class RangeNaming { Grouped, Raw };

// `name` as `naming` says: groupedRangeName(name) or name itself.
QString rangeName(QStringView name, RangeNaming naming);

} // namespace strobe
