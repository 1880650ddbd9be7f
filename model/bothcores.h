// SPDX-License-Identifier: MIT
#pragma once

// Two independent pieces of work at once, for the steps of a load that would otherwise leave
// one of the two cores Strobe is measured on idle.

#include <exception>
#include <system_error>
#include <thread>

namespace strobe {

// Runs `first` on a thread of its own and `second` on the calling thread, and returns once both
// are done. An exception from either is rethrown here (first's when both threw). Without a thread
// to be had, both run on the calling thread, first before second.
template <typename First, typename Second> void runOnBothCores(First&& first, Second&& second) {
    std::exception_ptr firstFailure, secondFailure;
    std::thread worker;
    try {
        worker = std::thread([&] {
            try {
                first();
            } catch (...) {
                firstFailure = std::current_exception();
            }
        });
    } catch (const std::system_error&) {
        first();
        second();
        return;
    }
    try {
        second();
    } catch (...) {
        secondFailure = std::current_exception();
    }
    worker.join();
    if (firstFailure)
        std::rethrow_exception(firstFailure);
    if (secondFailure)
        std::rethrow_exception(secondFailure);
}

} // namespace strobe
