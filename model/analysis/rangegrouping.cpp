// SPDX-License-Identifier: MIT
#include "model/analysis/rangegrouping.h"

#include <array>

namespace strobe {

QString groupedRangeName(QStringView name) {
    static constexpr std::array<QStringView, 4> kSuffixes{u", seq = ", u", op_id = ", u", sizes = ",
                                                          u", input_op_ids = "};
    qsizetype cut = name.size();
    for (QStringView s : kSuffixes) {
        const qsizetype at = name.indexOf(s);
        if (at > 0 && at < cut)
            cut = at;
    }
    return name.left(cut).toString();
}

QString rangeName(QStringView name, RangeNaming naming) {
    return naming == RangeNaming::Grouped ? groupedRangeName(name) : name.toString();
}

} // namespace strobe
