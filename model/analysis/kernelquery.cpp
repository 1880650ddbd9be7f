// SPDX-License-Identifier: MIT
#include "model/analysis/kernelquery.h"

#include <algorithm>
#include <numeric>

namespace strobe {

namespace {

std::int64_t product(const std::array<std::int32_t, 3>& d) {
    return std::int64_t(d[0]) * std::int64_t(d[1]) * std::int64_t(d[2]);
}

} // namespace

KernelTableData gatherKernelTableData(std::shared_ptr<const Trace> trace) {
    KernelTableData d;
    d.trace = std::move(trace);
    if (!d.trace)
        return d;
    const Trace& t = *d.trace;
    const std::size_t n = t.kernelCount();
    d.start.resize(n);
    d.end.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const EventRef self = t.kernelRef(k);
        const Lane& lane = t.lane(self.lane);
        d.start[k] = lane.start(self.index);
        d.end[k] = lane.end(self.index);
    }
    return d;
}

std::uint32_t kernelOperator(const OperatorForest& operators, std::size_t k) {
    const std::vector<std::uint32_t>& owners = operators.owners().kernels;
    return k < owners.size() && owners[k] != kNoOpNode ? operators.innermostOperator(owners[k])
                                                       : kNoOpNode;
}

namespace {

// Per kernel: the rank of its innermost operator's name among the forest's names
// (case-insensitive), -1 for kernels no operator launched.
std::vector<std::int64_t> operatorRanks(const OperatorForest* operators, std::size_t kernels) {
    std::vector<std::int64_t> rank(kernels, -1);
    if (!operators)
        return rank;
    const std::vector<QString>& names = operators->names();
    std::vector<std::uint32_t> order(names.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
        return QString::compare(names[a], names[b], Qt::CaseInsensitive) < 0;
    });
    std::vector<std::int64_t> nameRank(names.size());
    for (std::size_t r = 0; r < order.size(); ++r)
        nameRank[order[r]] = std::int64_t(r);
    for (std::size_t k = 0; k < kernels; ++k) {
        const std::uint32_t op = kernelOperator(*operators, k);
        if (op != kNoOpNode)
            rank[k] = nameRank[operators->node(op).name];
    }
    return rank;
}

} // namespace

std::vector<std::uint32_t> kernelPermutation(const KernelTableData& data, KernelSortKey key,
                                             bool demangled, const OperatorForest* operators) {
    using Key = KernelSortKey;
    const std::size_t n = data.start.size();
    std::vector<std::uint32_t> perm(n);
    if (key == Key::Start || !data.trace) { // kernels are stored in start order
        std::iota(perm.begin(), perm.end(), 0u);
        return perm;
    }
    const Trace& t = *data.trace;
    const auto& configs = t.kernelConfigs();
    std::vector<std::int64_t> configKey(configs.size());
    if (key == Key::Name) {
        // Rank of each configuration's name: one string sort over the few configurations.
        std::vector<std::uint32_t> order(configs.size());
        std::iota(order.begin(), order.end(), 0u);
        std::vector<QString> names(configs.size());
        for (std::size_t c = 0; c < configs.size(); ++c)
            names[c] = t.string(demangled ? configs[c].demangledName : configs[c].shortName);
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
            return QString::compare(names[a], names[b], Qt::CaseInsensitive) < 0;
        });
        for (std::size_t r = 0; r < order.size(); ++r)
            configKey[order[r]] = std::int64_t(r);
    }
    const std::vector<std::int64_t> opRank =
        key == Key::Operator ? operatorRanks(operators, n) : std::vector<std::int64_t>{};
    std::vector<std::pair<std::int64_t, std::uint32_t>> keyed(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t config = t.kernelConfigIndex(k);
        const KernelConfig& c = configs[config];
        const StreamInfo& s = t.streams()[t.kernelStreamIndex(k)];
        std::int64_t sortKey = 0;
        switch (key) {
        case Key::Name:
            sortKey = configKey[config];
            break;
        case Key::Operator:
            sortKey = opRank[k];
            break;
        case Key::Duration:
            sortKey = data.end[k] - data.start[k];
            break;
        case Key::End:
            sortKey = data.end[k];
            break;
        case Key::Device:
            sortKey = s.deviceId;
            break;
        case Key::Stream:
            sortKey = (std::int64_t(s.deviceId) << 32) | s.streamId;
            break;
        case Key::Grid:
            sortKey = product(c.grid);
            break;
        case Key::Block:
            sortKey = product(c.block);
            break;
        case Key::Registers:
            sortKey = c.registersPerThread;
            break;
        case Key::SharedMemory:
            sortKey = std::int64_t(c.staticSharedBytes) + c.dynamicSharedBytes;
            break;
        case Key::CorrelationId: {
            const auto corr = t.kernels()[k].correlationId;
            sortKey = corr ? std::int64_t(*corr) : -1;
            break;
        }
        case Key::Start:
            break;
        }
        keyed[k] = {sortKey, k};
    }
    std::sort(keyed.begin(), keyed.end()); // ties by kernel index, i.e. by start
    for (std::size_t i = 0; i < n; ++i)
        perm[i] = keyed[i].second;
    return perm;
}

KernelRows computeKernelRows(KernelRowQuery query) {
    KernelRows out;
    const KernelTableData* d = query.data.get();
    const std::size_t n = d ? d->start.size() : 0;
    if (d && n > 0 && (!query.permutation || query.permutation->size() != n))
        query.permutation = std::make_shared<const std::vector<std::uint32_t>>(
            kernelPermutation(*d, query.key, query.demangled, query.operators.get()));
    out.rowOf.assign(n, -1);
    if (n > 0) {
        const std::vector<std::uint32_t>& perm = *query.permutation;
        const Trace& trace = *d->trace;
        const auto& range = query.range;
        auto consider = [&](std::uint32_t k) {
            const std::uint32_t config = trace.kernelConfigIndex(k);
            if (config >= query.configPass.size() || !query.configPass[config])
                return;
            if (range &&
                (d->start[k] >= range->end || effectiveEnd(d->start[k], d->end[k]) <= range->start))
                return;
            out.rowOf[k] = std::int32_t(out.rows.size());
            out.rows.push_back(k);
        };
        out.rows.reserve(perm.size());
        if (!query.descending)
            std::for_each(perm.begin(), perm.end(), consider);
        else
            std::for_each(perm.rbegin(), perm.rend(), consider);
        out.rows.shrink_to_fit();
    }
    out.query = std::move(query);
    return out;
}

std::vector<std::uint8_t> kernelConfigPass(const Trace* trace,
                                           const std::vector<std::uint32_t>& configs,
                                           const NameFilter& name, bool demangled) {
    std::vector<std::uint8_t> pass(trace ? trace->kernelConfigs().size() : 0, 1);
    if (!configs.empty()) {
        std::fill(pass.begin(), pass.end(), 0);
        for (std::uint32_t c : configs) {
            if (c < pass.size())
                pass[c] = 1;
        }
    }
    if (name.isOpen())
        return pass;
    // Names are per configuration, and configurations are few: match each once. Either name
    // passes (the shown one first): "cutlass" finds "void cutlass::Kernel<...>" under its
    // derived short name too.
    for (std::size_t c = 0; c < pass.size(); ++c) {
        if (!pass[c])
            continue;
        const KernelConfig& config = trace->kernelConfigs()[c];
        const StringId shown = demangled ? config.demangledName : config.shortName;
        const StringId other = demangled ? config.shortName : config.demangledName;
        pass[c] = name.matches(trace->string(shown)) ||
                  (other != shown && name.matches(trace->string(other)));
    }
    return pass;
}

} // namespace strobe
