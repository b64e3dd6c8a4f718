#include "core/cachectl/backend_fake.h"

namespace ssdk::cachectl {

FakeBackend::FakeBackend(std::string name, ProbeResult probe, Capabilities capabilities)
    : m_name(std::move(name))
    , m_probe(std::move(probe))
    , m_capabilities(std::move(capabilities)) {}

Expected<ActiveCache> FakeBackend::enable(const CachePlan& plan) {
    if (auto checked = checkPlan(plan, m_capabilities); !checked) {
        return std::unexpected(checked.error());
    }
    if (!m_probe.available) {
        return fail(ErrorCode::Unsupported, m_name + " is unavailable: " + m_probe.reasonText());
    }
    const std::lock_guard lock(m_mutex);
    m_calls.push_back("enable " + plan.origin);
    m_tick = 0;
    m_dirty = plan.mode == CacheMode::WriteBack ? 8 * 1024 * 1024 : 0;
    return ActiveCache{m_name, plan, m_inPlace ? plan.origin : "/dev/mapper/" + plan.name,
                       Json{{"fake", true}}};
}

Expected<void> FakeBackend::disable(const ActiveCache& active) {
    const std::lock_guard lock(m_mutex);
    m_calls.push_back("flush");
    m_calls.push_back("disable " + active.plan.origin);
    m_dirty = 0;
    return {};
}

Expected<void> FakeBackend::flush(const ActiveCache& /*active*/) {
    const std::lock_guard lock(m_mutex);
    m_calls.push_back("flush");
    m_dirty = 0;
    return {};
}

Expected<void> FakeBackend::setMode(ActiveCache& active, CacheMode mode) {
    const std::lock_guard lock(m_mutex);
    m_calls.push_back(std::string("mode ") + std::string(toString(mode)));
    if (mode == CacheMode::WriteThrough) {
        m_dirty = 0;
    }
    active.plan.mode = mode;
    return {};
}

Expected<void> FakeBackend::resize(ActiveCache& active, std::uint64_t cacheBytes) {
    CachePlan plan = active.plan;
    plan.cacheBytes = cacheBytes;
    if (auto checked = checkPlan(plan, m_capabilities); !checked) {
        return std::unexpected(checked.error());
    }
    const std::lock_guard lock(m_mutex);
    m_calls.push_back("resize " + std::to_string(cacheBytes));
    active.plan = plan;
    return {};
}

Expected<CacheStats> FakeBackend::stats(const ActiveCache& active) const {
    const std::lock_guard lock(m_mutex);
    ++m_tick;
    CacheStats stats;
    // A warming cache: the hit ratio climbs towards ~85 %.
    stats.hits = m_tick * m_tick * 40;
    stats.misses = m_tick * 400 + 1000;
    stats.dirtyBytes =
        active.plan.mode == CacheMode::WriteBack ? m_dirty + (m_tick % 5) * 4096 * 64 : 0;
    stats.cacheBytes = active.plan.cacheBytes;
    stats.logicalBytes = std::min(active.plan.cacheBytes, m_tick * 16 * 1024 * 1024);
    stats.physicalBytes = active.plan.compression == Compression::None ? 0 : stats.logicalBytes / 2;
    stats.ramUsedBytes = stats.physicalBytes != 0 ? stats.physicalBytes : stats.logicalBytes;
    stats.mode = active.plan.mode;
    // What the plan asked for is what a real backend would report in effect.
    stats.sequentialCutoff = active.plan.sequentialCutoff;
    stats.writebackPercent = active.plan.writebackPercent;
    return stats;
}

std::vector<std::string> FakeBackend::calls() const {
    const std::lock_guard lock(m_mutex);
    return m_calls;
}

} // namespace ssdk::cachectl
