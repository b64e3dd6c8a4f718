#pragma once
// A backend that only keeps state in memory, for unit and GUI tests of everything above the
// backends (manager, helper verbs, CLI, RAM Cache page). Its statistics move on every stats()
// call while enabled, like a cache under load.
#include <mutex>

#include "core/cachectl/backend.h"

namespace ssdk::cachectl {

class FakeBackend final : public Backend {
public:
    FakeBackend(std::string name, ProbeResult probe, Capabilities capabilities);

    std::string name() const override { return m_name; }
    std::string title() const override { return "Fake " + m_name; }
    Capabilities capabilities() const override { return m_capabilities; }
    ProbeResult probe() const override { return m_probe; }
    Expected<ActiveCache> enable(const CachePlan& plan) override;
    Expected<void> disable(const ActiveCache& active) override;
    Expected<void> flush(const ActiveCache& active) override;
    Expected<void> setMode(ActiveCache& active, CacheMode mode) override;
    Expected<void> resize(ActiveCache& active, std::uint64_t cacheBytes) override;
    Expected<CacheStats> stats(const ActiveCache& active) const override;

    // What was called, in order ("enable /dev/x", "flush", "disable" …).
    std::vector<std::string> calls() const;
    // Cache the origin in place, its own device staying the cached device (as bcache does for
    // a /dev/bcacheN backing device), instead of /dev/mapper/<name>.
    void setCachesInPlace(bool inPlace) { m_inPlace = inPlace; }

private:
    std::string m_name;
    ProbeResult m_probe;
    Capabilities m_capabilities;
    mutable std::mutex m_mutex;
    mutable std::vector<std::string> m_calls;
    mutable std::uint64_t m_tick = 0;
    std::uint64_t m_dirty = 0;
    bool m_inPlace = false;
};

} // namespace ssdk::cachectl
