#include "core/cachectl/engine/simulator.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/cachectl/engine/policies.h"
#include "core/cachectl/engine/policy.h"

namespace ssdk::cachectl::engine {

ReplayTrace::ReplayTrace(std::vector<std::uint64_t> refs)
    : m_refs(std::move(refs)) {
    m_renumbered = std::ranges::any_of(
        m_refs, [](std::uint64_t ref) { return ref > ClockProPolicy::kMaxKey; });
    if (!m_renumbered) {
        std::unordered_set<std::uint64_t> seen;
        seen.reserve(m_refs.size() / 2);
        seen.insert(m_refs.begin(), m_refs.end());
        m_uniqueBlocks = seen.size();
        return;
    }
    std::unordered_map<std::uint64_t, std::uint64_t> numbers;
    numbers.reserve(m_refs.size() / 2);
    for (std::uint64_t& ref : m_refs) {
        ref = numbers.try_emplace(ref, numbers.size()).first->second;
    }
    m_uniqueBlocks = numbers.size();
}

Expected<SimulationResult> simulate(const ReplayTrace& trace, std::string_view policy,
                                    std::uint64_t cacheBlocks) {
    auto made = makePolicy(policy, cacheBlocks);
    if (!made) {
        return std::unexpected(made.error());
    }
    SimulationResult result{.policy = std::string((*made)->name()),
                            .cacheBlocks = cacheBlocks,
                            .requests = trace.refs().size(),
                            .uniqueBlocks = trace.uniqueBlocks()};
    std::vector<std::uint64_t> evicted;
    for (const std::uint64_t ref : trace.refs()) {
        evicted.clear();
        if ((*made)->access(ref, evicted)) {
            ++result.hits;
        }
    }
    result.metadataBytes = (*made)->metadataBytes();
    return result;
}

Expected<SimulationResult> simulate(std::span<const std::uint64_t> refs, std::string_view policy,
                                    std::uint64_t cacheBlocks) {
    return simulate(ReplayTrace({refs.begin(), refs.end()}), policy, cacheBlocks);
}

std::vector<std::uint64_t> mrcSizes(std::uint64_t uniqueBlocks, std::size_t points) {
    std::vector<std::uint64_t> sizes;
    if (uniqueBlocks == 0 || points == 0) {
        return sizes;
    }
    const double high = static_cast<double>(uniqueBlocks);
    const double low = std::min(high, std::max(16.0, high / 1000.0));
    for (std::size_t i = 0; i < points; ++i) {
        const double t =
            points == 1 ? 1.0 : static_cast<double>(i) / static_cast<double>(points - 1);
        const auto size = static_cast<std::uint64_t>(std::llround(low * std::pow(high / low, t)));
        if (sizes.empty() || size > sizes.back()) {
            sizes.push_back(std::max<std::uint64_t>(1, size));
        }
    }
    return sizes;
}

} // namespace ssdk::cachectl::engine
