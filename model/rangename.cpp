// SPDX-License-Identifier: MIT
#include "model/rangename.h"

#include <array>
#include <type_traits>

namespace strobe {

namespace {

constexpr std::array<std::string_view, 4> kSuffixes{
    ", seq = ", ", op_id = ", ", sizes = ", ", input_op_ids = "};

template <typename View> std::size_t cutAt(View name) {
    std::size_t cut = std::size_t(name.size());
    for (const std::string_view s : kSuffixes) {
        std::size_t at;
        if constexpr (std::is_same_v<View, QStringView>)
            at = std::size_t(name.indexOf(QLatin1String(s.data(), qsizetype(s.size()))));
        else
            at = name.find(s);
        if (at != std::size_t(-1) && at > 0 && at < cut)
            cut = at;
    }
    return cut;
}

} // namespace

QString groupedRangeName(QStringView name) {
    return name.left(qsizetype(cutAt(name))).toString();
}

std::string_view groupedRangeNameUtf8(std::string_view name) {
    return name.substr(0, cutAt(name));
}

} // namespace strobe
