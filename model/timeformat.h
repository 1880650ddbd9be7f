// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QString>
#include <QStringView>
#include <optional>

namespace strobe {

// The largest of s, ms, \u00b5s, ns that `magnitude` (>= 0) reaches; ns for anything below 1 us.
struct TimeUnit {
    TimeNs ns;
    const char16_t* name;
};
const TimeUnit& timeUnitFor(TimeNs magnitude);

// A duration for people: "523 ns", "12.40 \u00b5s", "1.235 ms", "2.500 s" (4 significant digits).
QString formatDuration(TimeNs d);
// "850 ns", "12.500 us", "3.250 ms", "1.204 s": ASCII units, `decimals` digits after the point
// (none for plain nanoseconds), for terminal output.
QString formatDurationFixed(TimeNs ns, int decimals = 3);
// A time relative to `origin` (the trace start), formatted like a duration, signed.
QString formatTimestamp(TimeNs t, TimeNs origin);
// A time typed by a person: a decimal number with an optional sign and unit, "1.2s", "120ms",
// "350us" (or "\u00b5s"), "800ns" or plain nanoseconds "2500"; a space may separate number and
// unit. Digits past the nanosecond are dropped. nullopt for anything else or beyond +-2^62 ns.
std::optional<TimeNs> parseTime(QStringView text);
// "1.50 GiB", "512 B": binary units.
QString formatBytes(std::uint64_t bytes);

} // namespace strobe
