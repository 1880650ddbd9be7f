// SPDX-License-Identifier: MIT
#include "model/analysis/rangegrouping.h"

namespace strobe {

QString rangeName(QStringView name, RangeNaming naming) {
    return naming == RangeNaming::Grouped ? groupedRangeName(name) : name.toString();
}

} // namespace strobe
