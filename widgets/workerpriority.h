// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <system_error>
#include <thread>

namespace strobe {

// How much lower than the GUI thread the loader and panel workers run (a nice-value offset).
// On a two-core machine the loader's two scan threads and the panels' computations keep both
// cores busy; at equal priority the GUI thread, waking every few milliseconds, waits behind
// them for a core (tens of milliseconds per stall). A lower priority gives it the core at once,
// and costs the workers nothing while the GUI thread sleeps.
inline constexpr int kWorkerNiceOffset = 5;

// Puts the calling thread kWorkerNiceOffset below the process's main thread (Linux: the thread's
// nice value, which threads it starts later inherit); idempotent; a no-op where unsupported or
// refused. Returns true when the thread now runs at that priority.
bool runBelowGuiPriority();

// Shares `object` with a deleter that frees it on a thread of its own, below the GUI's priority:
// freeing a big per-trace structure (a trace, its level of detail, a table's data) takes tens of
// milliseconds at 10M events and its last reference usually drops on the GUI thread when a
// newer trace replaces it. (Not a Qt pool: the last reference may also drop on a worker while
// the application exits.)
template <typename T> std::shared_ptr<T> shareFreedOffThread(std::unique_ptr<T> object) {
    return std::shared_ptr<T>(object.release(), [](T* p) {
        if (!p)
            return;
        try {
            std::thread([p] {
                runBelowGuiPriority();
                delete p;
            }).detach();
        } catch (const std::system_error&) { // no thread to be had: free it here
            delete p;
        }
    });
}

} // namespace strobe
