// SPDX-License-Identifier: MIT
#include "model/analysis/rangegrouping.h"

#include <algorithm>

namespace strobe {

QString rangeName(QStringView name, RangeNaming naming) {
    return naming == RangeNaming::Grouped ? groupedRangeName(name) : name.toString();
}

QString summaryRangeName(QStringView name, RangeNaming naming) {
    if (naming == RangeNaming::Grouped) {
        // The domain may qualify the text ("domain:ProfilerStep#5"): look at the text's start.
        static constexpr QStringView kStep = u"ProfilerStep#";
        const qsizetype at = name.indexOf(kStep);
        if (at >= 0 && (at == 0 || name[at - 1] == u':')) {
            const QStringView digits = name.mid(at + kStep.size());
            if (!digits.isEmpty() &&
                std::all_of(digits.begin(), digits.end(), [](QChar c) { return c.isDigit(); }))
                return name.left(at + kStep.size() - 1).toString();
        }
    }
    return rangeName(name, naming);
}

} // namespace strobe
