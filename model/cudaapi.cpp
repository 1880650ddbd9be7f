// SPDX-License-Identifier: MIT
#include "model/cudaapi.h"

#include <initializer_list>

namespace strobe::cudaapi {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool isOneOf(std::string_view n, std::initializer_list<std::string_view> names) {
    for (std::string_view s : names) {
        if (n == s)
            return true;
    }
    return false;
}

} // namespace

QString displayName(const QString& name) {
    qsizetype end = name.size();
    for (;;) {
        qsizetype i = end;
        while (i > 0 && name[i - 1].isDigit() && name[i - 1].unicode() < 128)
            --i;
        // i is the first digit of a trailing run; a suffix needs "_v" before it and a name before
        // that.
        if (i == end || i < 3 || name[i - 1] != u'v' || name[i - 2] != u'_')
            break;
        end = i - 2;
    }
    return end == name.size() ? name : name.left(end);
}

std::string_view baseName(std::string_view n) {
    for (bool changed = true; changed;) {
        changed = false;
        const auto us = n.rfind('_');
        if (us == std::string_view::npos || us == 0)
            break;
        const std::string_view tail = n.substr(us + 1);
        bool version = tail.size() >= 2 && tail[0] == 'v';
        for (std::size_t i = 1; version && i < tail.size(); ++i)
            version = isDigit(tail[i]);
        if (version || tail == "ptsz" || tail == "ptds") {
            n = n.substr(0, us);
            changed = true;
        }
    }
    return n;
}

SyncRole syncRole(std::string_view name) {
    const std::string_view n = baseName(name);
    if (isOneOf(n, {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
                    "cudaThreadSynchronize", "cuCtxSynchronize", "cuStreamSynchronize",
                    "cuEventSynchronize"}))
        return SyncRole::BlocksHost;
    // Blocking copies: every cudaMemcpy*/cuMemcpy* without "Async" (cudaMemcpy, cudaMemcpy2D,
    // cudaMemcpyToSymbol, cuMemcpyDtoH, ...).
    if ((startsWith(n, "cudaMemcpy") || startsWith(n, "cuMemcpy")) &&
        n.find("Async") == std::string_view::npos)
        return SyncRole::BlocksHost;
    if (startsWith(n, "cudaStreamWait") || startsWith(n, "cuStreamWait"))
        return SyncRole::OrdersGpu;
    if (isOneOf(n, {"cudaEventQuery", "cudaStreamQuery", "cuEventQuery", "cuStreamQuery"}))
        return SyncRole::Polls;
    return SyncRole::None;
}

} // namespace strobe::cudaapi
