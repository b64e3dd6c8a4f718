#include "core/cachectl/engine/simulator.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/cachectl/engine/policies.h"
#include "core/cachectl/engine/policy.h"

namespace ssdk::cachectl::engine {

std::uint64_t countUniqueBlocks(std::span<const std::uint64_t> refs) {
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(refs.size() / 2);
    for (const std::uint64_t ref : refs) {
        seen.insert(ref);
    }
    return seen.size();
}

namespace {

// refs with each block renumbered in order of first reference, for a trace whose block numbers
// do not all fit a policy's keys (ClockProPolicy::kMaxKey); empty when they do. Only which blocks
// the default policy's steering samples depends on the numbers.
std::vector<std::uint64_t> renumberIfLarge(std::span<const std::uint64_t> refs) {
    std::vector<std::uint64_t> renumbered;
    if (std::ranges::none_of(refs,
                             [](std::uint64_t ref) { return ref > ClockProPolicy::kMaxKey; })) {
        return renumbered;
    }
    std::unordered_map<std::uint64_t, std::uint64_t> numbers;
    renumbered.reserve(refs.size());
    for (const std::uint64_t ref : refs) {
        renumbered.push_back(numbers.try_emplace(ref, numbers.size()).first->second);
    }
    return renumbered;
}

} // namespace

Expected<SimulationResult> simulate(std::span<const std::uint64_t> refs, std::string_view policy,
                                    std::uint64_t cacheBlocks) {
    const std::vector<std::uint64_t> renumbered = renumberIfLarge(refs);
    if (!renumbered.empty()) {
        refs = renumbered;
    }
    auto made = makePolicy(policy, cacheBlocks);
    if (!made) {
        return std::unexpected(made.error());
    }
    SimulationResult result{.policy = std::string((*made)->name()),
                            .cacheBlocks = cacheBlocks,
                            .requests = refs.size(),
                            .uniqueBlocks = countUniqueBlocks(refs)};
    std::vector<std::uint64_t> evicted;
    for (const std::uint64_t ref : refs) {
        evicted.clear();
        if ((*made)->access(ref, evicted)) {
            ++result.hits;
        }
    }
    result.metadataBytes = (*made)->metadataBytes();
    return result;
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
