// SPDX-License-Identifier: MIT
#include "tests/support/kinetoscan.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <simdjson.h>
#include <stdexcept>
#include <zlib.h>

namespace strobe::test {

namespace {

std::string readAll(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb"); // reads plain files unchanged
    if (!f)
        throw std::runtime_error("cannot open " + path);
    std::string out;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        out.append(buf, std::size_t(n));
    gzclose(f);
    if (n < 0)
        throw std::runtime_error("cannot decompress " + path);
    return out;
}

std::optional<std::int64_t> integer(simdjson::dom::element e) {
    if (e.is_int64())
        return std::int64_t(e.get_int64());
    if (e.is_uint64())
        return std::nullopt;
    if (e.is_double()) {
        const double d = e.get_double();
        if (d == std::floor(d) && std::fabs(d) < 9e15)
            return std::int64_t(d);
        return std::nullopt;
    }
    if (e.is_string()) {
        const std::string_view s = e.get_string();
        if (s.empty() ||
            !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        return std::stoll(std::string(s));
    }
    return std::nullopt;
}

std::optional<std::array<std::int64_t, 3>> dim3(simdjson::dom::element e) {
    if (!e.is_array())
        return std::nullopt;
    std::array<std::int64_t, 3> d{1, 1, 1};
    std::size_t i = 0;
    for (simdjson::dom::element x : e.get_array()) {
        if (i < 3)
            d[i] = integer(x).value_or(-1);
        ++i;
    }
    return d;
}

// Python's str() of a list of lists of integers, into `out`; false for anything else.
bool pythonList(simdjson::dom::element e, std::string& out) {
    if (e.is_int64()) {
        out += std::to_string(std::int64_t(e.get_int64()));
        return true;
    }
    if (!e.is_array())
        return false;
    out += '[';
    bool first = true;
    for (simdjson::dom::element x : e.get_array()) {
        if (!first)
            out += ", ";
        first = false;
        if (!pythonList(x, out))
            return false;
    }
    out += ']';
    return true;
}

} // namespace

std::string kinetoFixturePath(const std::string& name) {
    return std::string(STROBE_FIXTURES_DIR) + "/kineto/" + name;
}

std::vector<std::string> kinetoFixtures() {
    std::vector<std::string> out;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(STROBE_FIXTURES_DIR) + "/kineto"))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

ScannedTrace scanKineto(const std::string& path) {
    const simdjson::padded_string text(readAll(path));
    simdjson::dom::parser parser;
    simdjson::dom::element root = parser.parse(text);
    ScannedTrace t;
    simdjson::dom::object top = root.get_object();
    if (auto d = top["distributedInfo"]; !d.error()) {
        if (auto r = d["rank"]; !r.error())
            t.rank = integer(r.value());
        if (auto w = d["world_size"]; !w.error())
            t.worldSize = integer(w.value());
    }
    if (auto p = top["deviceProperties"]; !p.error())
        t.deviceProperties = simdjson::dom::array(p.get_array()).size();
    for (simdjson::dom::element ev : top["traceEvents"].get_array()) {
        ScannedEvent e;
        for (auto [key, value] : ev.get_object()) {
            if (key == "ph")
                e.ph = std::string(value.get_string().value());
            else if (key == "cat")
                e.cat = std::string(value.get_string().value());
            else if (key == "name" && value.is_string())
                e.name = std::string(value.get_string().value());
            else if (key == "s")
                e.scope = std::string(value.get_string().value());
            else if (key == "pid")
                e.pid = integer(value);
            else if (key == "tid")
                e.tid = integer(value);
            else if (key == "ts") {
                e.ts = double(value.get_double());
                e.tsInt = integer(value);
            } else if (key == "dur") {
                e.dur = double(value.get_double());
                e.durInt = integer(value);
            } else if (key == "args" && value.is_object()) {
                for (auto [k, v] : value.get_object()) {
                    if (k == "correlation")
                        e.correlation = integer(v);
                    else if (k == "device")
                        e.device = integer(v);
                    else if (k == "stream")
                        e.stream = integer(v);
                    else if (k == "registers per thread")
                        e.registers = integer(v);
                    else if (k == "shared memory")
                        e.sharedMemory = integer(v);
                    else if (k == "grid")
                        e.grid = dim3(v);
                    else if (k == "block")
                        e.block = dim3(v);
                    else if (k == "blocks per SM" && v.is_number())
                        e.blocksPerSm = double(v.get_double());
                    else if (k == "est. achieved occupancy %" && v.is_number())
                        e.occupancyPercent = double(v.get_double());
                    else if (k == "Total Allocated")
                        e.totalAllocated = integer(v);
                    else if (k == "Device Type")
                        e.memoryDeviceType = integer(v);
                    else if (k == "Device Id")
                        e.memoryDeviceId = integer(v);
                    else if (k == "external id" && !v.is_null())
                        e.externalId = integer(v); // wins over "External id", as in the plugin
                    else if (k == "External id" && !e.externalId)
                        e.externalId = integer(v);
                    else if (k == "Input Dims" || k == "Input dims") {
                        std::string text;
                        e.inputDims = v.is_array() && pythonList(v, text) ? text : "?";
                    } else if (k == "Python module id") {
                        e.pythonModuleId = !v.is_null();
                    } else if (k == "Process Group Name" && v.is_string()) {
                        e.processGroupName = std::string(std::string_view(v.get_string()));
                    } else if (k == "In msg nelems") {
                        e.inMsgNelems = integer(v);
                    } else if (k == "dtype" && v.is_string()) {
                        e.dtype = std::string(std::string_view(v.get_string()));
                    }
                }
            }
        }
        t.events.push_back(std::move(e));
    }
    return t;
}

} // namespace strobe::test
