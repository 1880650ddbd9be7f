// SPDX-License-Identifier: MIT
#pragma once

// An independent reading of Kineto fixtures for the tests: zlib + simdjson's DOM API, none of
// the reader's code. Gives each event's members as the JSON has them.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strobe::test {

std::string kinetoFixturePath(const std::string& name); // inside STROBE_FIXTURES_DIR/kineto
std::vector<std::string> kinetoFixtures();              // every file there, sorted

struct ScannedEvent {
    std::string ph, cat, name, scope;
    std::optional<std::int64_t> pid, tid;      // numbers, or strings of digits
    std::optional<double> ts, dur;             // microseconds as doubles (inexact past 2^53)
    std::optional<std::int64_t> tsInt, durInt; // when the JSON wrote integers (or n.0)
    std::optional<std::int64_t> correlation, device, stream, registers, sharedMemory;
    std::optional<std::array<std::int64_t, 3>> grid, block;
    // Kernels: args "blocks per SM" and "est. achieved occupancy %" as Kineto wrote them.
    std::optional<double> blocksPerSm, occupancyPercent;
    // [memory] instants: args "Total Allocated", "Device Type", "Device Id".
    std::optional<std::int64_t> totalAllocated, memoryDeviceType, memoryDeviceId;
    std::optional<std::int64_t> externalId; // args "External id", else "external id"
    bool pythonModuleId = false;            // args "Python module id" is there (an nn.Module frame)
    // args "Input Dims" ("Input dims" before PyTorch 1.10) as Python's str() prints the list,
    // "[[32, 3, 224, 224], []]"; "?" when it is not a list of lists of integers.
    std::optional<std::string> inputDims;
    // Collectives (PyTorch 2.x): args "Process Group Name", "In msg nelems", "dtype".
    std::optional<std::string> processGroupName, dtype;
    std::optional<std::int64_t> inMsgNelems;
};

struct ScannedTrace {
    std::vector<ScannedEvent> events;
    std::optional<std::int64_t> rank, worldSize;
    std::size_t deviceProperties = 0;
};

// Throws std::runtime_error when the file cannot be read or parsed.
ScannedTrace scanKineto(const std::string& path);

} // namespace strobe::test
