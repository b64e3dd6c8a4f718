#pragma once
// Backend "bcache": a bcache backing device (formatted for bcache; its data starts after the
// bcache superblock) gets a cache set on a RAM device (zram) or a cache drive. An existing
// set is adopted: enable only changes its settings, and disable puts them back. A plan's
// sequential cutoff and writeback percent go to sequential_cutoff and writeback_percent in
// /sys/block/bcacheN/bcache; disable puts the values found before back. The origin is
// the backing partition or /dev/bcacheN itself (what its filesystem is mounted from: apply
// now unmounts and mounts that). A partition holding a plain filesystem is refused: bcache
// cannot cache it without reformatting.
#include "core/cachectl/backend.h"
#include "core/cachectl/host_env.h"

namespace ssdk::cachectl {

// "1.5M" / "512k" / "0" (bcache's human-readable sizes) → bytes.
std::optional<std::uint64_t> parseBcacheSize(std::string_view text);
// make-bcache's bucket size for a cache of that size: at most 512 KiB, small enough for the
// 1024 buckets the kernel needs (4 KiB at least).
std::uint64_t bcacheBucketBytes(std::uint64_t cacheBytes);
// "writethrough [writeback] writearound none" → "writeback".
std::string selectedBcacheMode(std::string_view text);

class BcacheBackend final : public Backend {
public:
    explicit BcacheBackend(HostEnv env)
        : m_env(std::move(env)) {}

    std::string name() const override { return "bcache"; }
    std::string title() const override { return "bcache"; }
    Capabilities capabilities() const override;
    ProbeResult probe() const override;
    Expected<ActiveCache> enable(const CachePlan& plan) override;
    Expected<void> disable(const ActiveCache& active) override;
    Expected<void> flush(const ActiveCache& active) override;
    Expected<void> setMode(ActiveCache& active, CacheMode mode) override;
    Expected<void> resize(ActiveCache& active, std::uint64_t cacheBytes) override;
    Expected<CacheStats> stats(const ActiveCache& active) const override;

    // The bcacheN whose backing device is origin (or origin itself when it is bcacheN), or
    // empty.
    std::optional<std::string> bcacheOf(const std::string& origin) const;

private:
    std::filesystem::path control(const ActiveCache& active) const;
    Expected<void> waitClean(const std::filesystem::path& control) const;
    // Writes the plan's sequential_cutoff and writeback_percent (those it sets).
    Expected<void> applyTuning(const std::filesystem::path& control, const CachePlan& plan) const;
    // Writes back the values enable() found (best effort: the device may be going away).
    void restoreTuning(const std::filesystem::path& control, const ActiveCache& active) const;
    // Puts back what enable() changed, without flushing first.
    Expected<void> teardown(const ActiveCache& active);

    HostEnv m_env;
};

} // namespace ssdk::cachectl
