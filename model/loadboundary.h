// SPDX-License-Identifier: MIT
#pragma once

// The file boundary that every reader (formats/) shares: what a reader throws inside, and the
// one place that turns it into a LoadResult with its sentence. Nothing above the readers sees
// these exceptions.

#include "model/loadoptions.h"

#include <QString>
#include <QStringBuilder>
#include <atomic>
#include <new>
#include <type_traits>

namespace strobe {

// Thrown inside a reader only: `message` is the whole sentence, naming the file.
struct LoadFailure {
    QString message;
};
// Thrown inside a reader only, once it sees LoadOptions::cancel set.
struct LoadCancelled {};

// True when `cancel` is set; a null `cancel` never is.
inline bool isCancelled(const std::atomic<bool>* cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

// Throws LoadCancelled when `cancel` is set (isCancelled).
inline void throwIfCancelled(const std::atomic<bool>* cancel) {
    if (isCancelled(cancel))
        throw LoadCancelled{};
}

// Runs `read` (returns the trace or throws) and gives back its LoadResult: the trace, or, for a
// LoadFailure, `reword(message)`; for a LoadCancelled, cancelled and "Loading 'F' was
// cancelled."; for a std::bad_alloc, "Cannot load 'F': not enough memory." `fileName` is F, the
// file's name without its folder. Any other exception passes through.
template <typename Read, typename Reword>
LoadResult loadAtBoundary(const QString& fileName, Read&& read, Reword&& reword) {
    // A QString, not a QStringBuilder that would point into the reword's own temporaries.
    static_assert(std::is_same_v<std::invoke_result_t<Reword&, const QString&>, QString>);
    LoadResult result;
    try {
        result.trace = read();
    } catch (const LoadFailure& f) {
        result.error = reword(f.message);
    } catch (const LoadCancelled&) {
        result.cancelled = true;
        result.error = QStringLiteral("Loading '") % fileName % QStringLiteral("' was cancelled.");
    } catch (const std::bad_alloc&) {
        result.error =
            QStringLiteral("Cannot load '") % fileName % QStringLiteral("': not enough memory.");
    }
    return result;
}

// The same, a LoadFailure's message taken as it is.
template <typename Read> LoadResult loadAtBoundary(const QString& fileName, Read&& read) {
    return loadAtBoundary(fileName, static_cast<Read&&>(read),
                          [](const QString& message) { return message; });
}

} // namespace strobe
