#include "core/cachectl/backends/bcache_backend.h"

#include <cmath>
#include <regex>

#include "core/base/log.h"
#include "core/cachectl/backends/zram.h"

namespace ssdk::cachectl {

namespace {

using namespace std::chrono_literals;

// The kernel's defaults, for a sysfs attribute that cannot be read.
constexpr std::uint64_t kBcacheDefaultCutoff = 4ULL << 20;
constexpr std::uint64_t kBcacheDefaultWritebackPercent = 10;

std::string bcacheModeName(CacheMode mode) {
    return mode == CacheMode::WriteBack ? "writeback" : "writethrough";
}

} // namespace

std::optional<std::uint64_t> parseBcacheSize(std::string_view text) {
    std::string value(text);
    while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) {
        value.pop_back();
    }
    if (value.empty()) {
        return std::nullopt;
    }
    double scale = 1.0;
    switch (value.back()) {
    case 'k':
    case 'K':
        scale = 1024.0;
        break;
    case 'M':
        scale = 1024.0 * 1024.0;
        break;
    case 'G':
        scale = 1024.0 * 1024.0 * 1024.0;
        break;
    case 'T':
        scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
        break;
    default:
        break;
    }
    if (scale != 1.0) {
        value.pop_back();
    }
    try {
        std::size_t used = 0;
        const double number = std::stod(value, &used);
        if (used != value.size() || number < 0) {
            return std::nullopt;
        }
        return static_cast<std::uint64_t>(std::llround(number * scale));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::uint64_t bcacheBucketBytes(std::uint64_t cacheBytes) {
    // The kernel keeps nbuckets / 1024 (rounded up to a power of two, then shifted) buckets in
    // reserve and refuses a cache where that is 0: "ca->sb.nbuckets is too small" (found in
    // the lab with 64 MiB and make-bcache's 512 KiB default). At least 1024 buckets, then.
    std::uint64_t bucket = 512 * 1024;
    while (bucket > 4096 && cacheBytes / bucket < 1024) {
        bucket /= 2;
    }
    return bucket;
}

std::string selectedBcacheMode(std::string_view text) {
    const auto open = text.find('[');
    const auto close = text.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        return std::string(text);
    }
    return std::string(text.substr(open + 1, close - open - 1));
}

Capabilities BcacheBackend::capabilities() const {
    Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compression = true; // through zram when the cache is in RAM
    capabilities.resizeLive = false;
    capabilities.persistent = false; // a RAM cache set is gone after a reboot
    capabilities.ramBacked = true;
    capabilities.compressions = {Compression::Lz4, Compression::Zstd};
    capabilities.sequentialCutoff = true;
    capabilities.writebackPercent = true;
    return capabilities;
}

ProbeResult BcacheBackend::probe() const {
    ProbeResult result;
    if (!m_env.isRoot) {
        result.reasons.push_back("needs root (run through ssdkeeper-helper)");
    }
    if (!m_env.exists("/sys/fs/bcache")) {
        if (auto problem = m_env.moduleProblem("bcache"); problem) {
            result.reasons.push_back(*problem);
        }
    }
    if (!m_env.findTool("make-bcache")) {
        result.reasons.push_back("make-bcache is not installed (Debian package bcache-tools)");
    }
    result.available = result.reasons.empty();
    return result;
}

std::optional<std::string> BcacheBackend::bcacheOf(const std::string& origin) const {
    const std::string name = kernelName(origin);
    // The bcache device itself (what its filesystem is mounted from).
    if (name.starts_with("bcache") && m_env.exists("/sys/block/" + name + "/bcache")) {
        return name;
    }
    for (const auto& holder : m_env.list("/sys/class/block/" + name + "/holders")) {
        if (holder.starts_with("bcache")) {
            return holder;
        }
    }
    return std::nullopt;
}

std::filesystem::path BcacheBackend::control(const ActiveCache& active) const {
    return std::filesystem::path("/sys/block") / kernelName(active.cachedDevice) / "bcache";
}

Expected<ActiveCache> BcacheBackend::enable(const CachePlan& plan) {
    if (auto checked = checkPlan(plan, capabilities()); !checked) {
        return std::unexpected(checked.error());
    }
    if (auto probed = probe(); !probed.available) {
        return fail(ErrorCode::Unsupported, "bcache is unavailable: " + probed.reasonText());
    }
    if (auto loaded = m_env.loadModule("bcache"); !loaded) {
        return std::unexpected(loaded.error());
    }
    auto bcache = bcacheOf(plan.origin);
    if (!bcache) {
        // Registering is harmless on a device that is not bcache: the kernel refuses it.
        (void)m_env.write("/sys/fs/bcache/register", plan.origin);
        (void)m_env.run({"udevadm", "settle", "--timeout=10"}, 15s);
        bcache = bcacheOf(plan.origin);
    }
    if (!bcache) {
        return fail(ErrorCode::Unsupported,
                    plan.origin +
                        " is not a bcache backing device, and bcache cannot cache it without "
                        "reformatting: make-bcache -B writes its superblock over the start of "
                        "the filesystem. Use zram-writecache, engine or ssd-cache for a "
                        "partition that holds data, or format an empty partition with "
                        "make-bcache -B and put the filesystem on /dev/bcacheN");
    }
    if (kernelName(plan.origin) != *bcache) {
        // Its filesystem lives on /dev/bcacheN: caching the backing partition underneath a
        // mounted /dev/bcacheN could not unmount and mount it back.
        if (auto mounted = m_env.mountPointOf("/dev/" + *bcache); mounted) {
            return fail(ErrorCode::Busy, plan.origin + " is the backing device of /dev/" + *bcache +
                                             ", mounted on " + *mounted + ": cache /dev/" +
                                             *bcache + " instead");
        }
    }
    const std::filesystem::path sys = std::filesystem::path("/sys/block") / *bcache / "bcache";
    ActiveCache active{name(), plan, "/dev/" + *bcache, Json::object()};
    active.resources["previous_mode"] =
        selectedBcacheMode(m_env.read(sys / "cache_mode").value_or("writethrough"));
    // In bytes: bcache prints "4.0M" but only takes plain numbers (or "4M") back.
    active.resources["previous_sequential_cutoff"] =
        parseBcacheSize(m_env.read(sys / "sequential_cutoff").value_or(""))
            .value_or(kBcacheDefaultCutoff);
    active.resources["previous_writeback_percent"] =
        m_env.readU64(sys / "writeback_percent").value_or(kBcacheDefaultWritebackPercent);
    if (m_env.exists(sys / "cache")) {
        active.resources["adopted"] = true; // a cache set is attached already
    } else {
        std::string cacheDevice = plan.cacheDevice;
        // The kernel refuses to attach a set with bigger blocks than the backing device's
        // (EINVAL, found in the lab): zram has 4 KiB blocks, make-bcache -B 512-byte ones.
        const auto blockSize = m_env.readU64(sys.parent_path() / "queue/logical_block_size");
        if (cacheDevice.empty() && blockSize && *blockSize < 4096) {
            return fail(ErrorCode::Unsupported,
                        plan.origin + " was formatted for bcache with " +
                            std::to_string(*blockSize) +
                            "-byte blocks; a RAM (zram) cache needs 4 KiB: make-bcache -B "
                            "--block 4k (on an empty partition), or a cache drive");
        }
        if (cacheDevice.empty()) {
            auto id = zramAdd(m_env, plan.compression, plan.cacheBytes);
            if (!id) {
                return std::unexpected(id.error());
            }
            active.resources["zram"] = Json::array({*id});
            cacheDevice = zramPath(*id);
        }
        auto undoZram = [&] {
            for (const auto& id : active.resources.value("zram", Json::array())) {
                (void)zramRemove(m_env, id.get<int>());
            }
        };
        const std::uint64_t cacheBytes =
            plan.cacheDevice.empty() ? plan.cacheBytes
                                     : m_env.deviceBytes(cacheDevice).value_or(plan.cacheBytes);
        auto made = m_env.runChecked({"make-bcache", "--wipe-bcache", "--bucket",
                                      std::to_string(bcacheBucketBytes(cacheBytes) / 1024) + "k",
                                      "-C", cacheDevice});
        if (!made) {
            undoZram();
            return std::unexpected(made.error());
        }
        std::smatch match;
        const std::regex setUuid(R"(Set UUID:\s*([0-9a-fA-F-]{36}))");
        if (!std::regex_search(made->standardOutput, match, setUuid)) {
            undoZram();
            return fail(ErrorCode::Parse, "make-bcache printed no Set UUID");
        }
        const std::string uuid = match[1];
        active.resources["cache_set"] = uuid;
        active.resources["cache_device"] = cacheDevice;
        if (auto registered = m_env.write("/sys/fs/bcache/register", cacheDevice); !registered) {
            undoZram();
            return std::unexpected(Error(registered.error())
                                       .addContext("registering " + cacheDevice +
                                                   " as a bcache cache (the kernel log says why)"));
        }
        if (auto attached = m_env.write(sys / "attach", uuid); !attached) {
            (void)m_env.write("/sys/fs/bcache/" + uuid + "/unregister", "1");
            undoZram();
            return std::unexpected(attached.error());
        }
        if (plan.cacheDevice.empty()) {
            // RAM is never slower than the backing device: bcache's congestion tracking could
            // only make it bypass the cache.
            for (const char* knob :
                 {"congested_read_threshold_us", "congested_write_threshold_us"}) {
                (void)m_env.write("/sys/fs/bcache/" + uuid + "/" + knob, "0");
            }
        }
    }
    if (auto mode = m_env.write(sys / "cache_mode", bcacheModeName(plan.mode)); !mode) {
        return std::unexpected(mode.error());
    }
    if (auto tuned = applyTuning(sys, plan); !tuned) {
        // Nothing dirty yet: take down what this call set up and put the old settings back.
        (void)teardown(active);
        return std::unexpected(tuned.error());
    }
    log::get("cachectl")->info("bcache: {} caches {}", active.cachedDevice, plan.origin);
    return active;
}

Expected<void> BcacheBackend::applyTuning(const std::filesystem::path& sys,
                                          const CachePlan& plan) const {
    if (plan.sequentialCutoff) {
        if (auto written =
                m_env.write(sys / "sequential_cutoff", std::to_string(*plan.sequentialCutoff));
            !written) {
            return std::unexpected(
                Error(written.error()).addContext("setting bcache's sequential_cutoff"));
        }
    }
    if (plan.writebackPercent) {
        const std::string wanted = std::to_string(*plan.writebackPercent);
        if (auto written = m_env.write(sys / "writeback_percent", wanted); !written) {
            return std::unexpected(
                Error(written.error()).addContext("setting bcache's writeback_percent"));
        }
        // The kernel clamps it silently to bch_cutoff_writeback (40 unless the module was
        // loaded with a higher one, 70 at most).
        const auto now = m_env.readU64(sys / "writeback_percent");
        if (now && *now != *plan.writebackPercent) {
            return fail(ErrorCode::Unsupported,
                        "bcache on this kernel allows a writeback percent of at most " +
                            std::to_string(*now) +
                            " (module parameter bch_cutoff_writeback), not " + wanted);
        }
    }
    return {};
}

void BcacheBackend::restoreTuning(const std::filesystem::path& sys,
                                  const ActiveCache& active) const {
    // Only what the plan changed: bcache prints sizes rounded ("976.5k"), so writing back an
    // untouched cutoff could change it.
    if (active.plan.sequentialCutoff) {
        // Journals from before the tuning have the cutoff as bcache printed it ("4.0M").
        const Json cutoff = active.resources.value("previous_sequential_cutoff", Json());
        const std::uint64_t bytes =
            cutoff.is_number_unsigned()
                ? cutoff.get<std::uint64_t>()
                : parseBcacheSize(cutoff.is_string() ? cutoff.get<std::string>() : std::string())
                      .value_or(kBcacheDefaultCutoff);
        (void)m_env.write(sys / "sequential_cutoff", std::to_string(bytes));
    }
    if (active.plan.writebackPercent) {
        (void)m_env.write(sys / "writeback_percent",
                          std::to_string(active.resources.value("previous_writeback_percent",
                                                                kBcacheDefaultWritebackPercent)));
    }
}

Expected<void> BcacheBackend::waitClean(const std::filesystem::path& sys) const {
    for (int poll = 0; poll < 1200; ++poll) {
        auto dirty = parseBcacheSize(m_env.read(sys / "dirty_data").value_or(""));
        if (dirty && *dirty == 0) {
            return {};
        }
        m_env.sleep(250ms);
    }
    return fail(ErrorCode::Timeout, "bcache did not write back its dirty data within 5 minutes");
}

Expected<void> BcacheBackend::flush(const ActiveCache& active) {
    const auto sys = control(active);
    const std::string percent = m_env.read(sys / "writeback_percent").value_or("10");
    (void)m_env.write(sys / "writeback_running", "1");
    // writeback_percent 0 makes the writeback thread write everything dirty.
    if (auto zero = m_env.write(sys / "writeback_percent", "0"); !zero) {
        return std::unexpected(zero.error());
    }
    auto clean = waitClean(sys);
    (void)m_env.write(sys / "writeback_percent", percent);
    return clean;
}

Expected<void> BcacheBackend::disable(const ActiveCache& active) {
    if (auto flushed = flush(active); !flushed) {
        return std::unexpected(Error(flushed.error()).addContext("disabling the cache"));
    }
    return teardown(active);
}

Expected<void> BcacheBackend::teardown(const ActiveCache& active) {
    const auto sys = control(active);
    restoreTuning(sys, active);
    if (active.resources.value("adopted", false)) {
        return m_env.write(sys / "cache_mode",
                           active.resources.value("previous_mode", "writethrough"));
    }
    if (auto detached = m_env.write(sys / "detach", "1"); !detached) {
        return std::unexpected(detached.error());
    }
    for (int poll = 0; poll < 240 && m_env.exists(sys / "cache"); ++poll) {
        m_env.sleep(250ms);
    }
    const std::string uuid = active.resources.value("cache_set", "");
    if (!uuid.empty()) {
        (void)m_env.write("/sys/fs/bcache/" + uuid + "/unregister", "1");
        for (int poll = 0; poll < 240 && m_env.exists("/sys/fs/bcache/" + uuid); ++poll) {
            m_env.sleep(250ms);
        }
    }
    (void)m_env.write(sys / "cache_mode", active.resources.value("previous_mode", "writethrough"));
    for (const auto& id : active.resources.value("zram", Json::array())) {
        // bcache lets go of its cache device a moment after the set is gone (EBUSY before).
        auto removed = zramRemove(m_env, id.get<int>());
        for (int poll = 0; poll < 40 && !removed; ++poll) {
            m_env.sleep(250ms);
            removed = zramRemove(m_env, id.get<int>());
        }
        if (!removed) {
            return std::unexpected(removed.error());
        }
    }
    return {};
}

Expected<void> BcacheBackend::setMode(ActiveCache& active, CacheMode mode) {
    if (auto written = m_env.write(control(active) / "cache_mode", bcacheModeName(mode));
        !written) {
        return std::unexpected(written.error());
    }
    active.plan.mode = mode;
    // Switched first, drained after: bcache's writeback thread keeps writing back what is
    // dirty in write-through, and a write that comes meanwhile is no longer kept dirty.
    if (mode == CacheMode::WriteThrough) {
        if (auto flushed = flush(active); !flushed) {
            return std::unexpected(Error(flushed.error())
                                       .addContext("switched to write-through, still writing "
                                                   "back what was dirty"));
        }
    }
    return {};
}

Expected<void> BcacheBackend::resize(ActiveCache& /*active*/, std::uint64_t /*cacheBytes*/) {
    return fail(ErrorCode::Unsupported,
                "bcache cannot resize a cache set; disable and enable it with the new size");
}

Expected<CacheStats> BcacheBackend::stats(const ActiveCache& active) const {
    const auto sys = control(active);
    if (!m_env.exists(sys)) {
        return fail(ErrorCode::NotFound, active.cachedDevice + " is gone");
    }
    CacheStats stats;
    stats.hits = m_env.readU64(sys / "stats_total/cache_hits").value_or(0);
    stats.misses = m_env.readU64(sys / "stats_total/cache_misses").value_or(0);
    stats.dirtyBytes = parseBcacheSize(m_env.read(sys / "dirty_data").value_or("0")).value_or(0);
    stats.cacheBytes = active.plan.cacheBytes;
    stats.mode = selectedBcacheMode(m_env.read(sys / "cache_mode").value_or("")) == "writeback"
                     ? CacheMode::WriteBack
                     : CacheMode::WriteThrough;
    stats.sequentialCutoff = parseBcacheSize(m_env.read(sys / "sequential_cutoff").value_or(""));
    if (auto percent = m_env.readU64(sys / "writeback_percent"); percent) {
        stats.writebackPercent = static_cast<unsigned>(std::min<std::uint64_t>(*percent, 100));
    }
    addZramStats(m_env, active.resources, stats);
    return stats;
}

} // namespace ssdk::cachectl
