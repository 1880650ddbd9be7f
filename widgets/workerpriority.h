// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
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

// Background work that begins from now on (panels' computations, deferred frees) waits until
// releaseBackgroundWork() or for `limit`, whichever comes first. A timeline holds it while it
// paints the first frame of a new trace: on two cores every panel starting its work at once,
// and the previous trace being freed, took the GUI thread's core for most of that frame.
// Thread-safe; a later hold extends an earlier one.
void holdBackgroundWork(std::chrono::milliseconds limit);
void releaseBackgroundWork();
// True from holdBackgroundWork() until its release or its limit.
bool isBackgroundWorkHeld();
// Called by a worker before it begins: returns at once unless held. (A GUI thread that blocks
// on such a worker before it releases the hold waits out the limit, no longer.)
void waitWhileBackgroundWorkHeld();

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
                waitWhileBackgroundWorkHeld();
                delete p;
            }).detach();
        } catch (const std::system_error&) { // no thread to be had: free it here
            delete p;
        }
    });
}

} // namespace strobe
