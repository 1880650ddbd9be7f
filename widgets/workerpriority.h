// SPDX-License-Identifier: MIT
#pragma once

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

} // namespace strobe
