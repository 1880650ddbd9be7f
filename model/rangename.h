// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringView>
#include <string_view>

namespace strobe {

// The name NVTX and user-annotation ranges are grouped under when many instances of one
// operation carry per-call suffixes. PyTorch's emit_nvtx (and record_function with shapes)
// appends, in this order, ", seq = N", ", op_id = N", ", sizes = [...]" and
// ", input_op_ids = [...]" to the operator name: "aten::mul, seq = 12, op_id = 345,
// sizes = [[64, 3]]" groups as "aten::mul". The name is cut at the first of these suffixes;
// names without one come back unchanged (ProfilerStep#3 stays itself: it is an iteration, not a
// per-call suffix). Used by the comparison, by every table that groups ranges by name and by
// the timeline's colours (every call of one operator has the operator's colour).
QString groupedRangeName(QStringView name);
// The same cut on UTF-8 text (the suffixes are ASCII): a prefix of `name`, nothing copied.
std::string_view groupedRangeNameUtf8(std::string_view name);

} // namespace strobe
