#include "core/cachectl/backends/dm_cache.h"

#include <chrono>
#include <fmt/format.h>
#include <sstream>

#include "core/base/bytes.h"
#include "core/base/log.h"

namespace ssdk::cachectl {

namespace {

using namespace std::chrono_literals;

constexpr int kCleanPolls = 1200; // × 250 ms = 5 minutes

Expected<std::pair<std::uint64_t, std::uint64_t>> parseFraction(const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos) {
        return fail(ErrorCode::Parse, "expected used/total, got '" + text + "'");
    }
    try {
        return std::make_pair(std::stoull(text.substr(0, slash)),
                              std::stoull(text.substr(slash + 1)));
    } catch (const std::exception&) {
        return fail(ErrorCode::Parse, "expected used/total, got '" + text + "'");
    }
}

std::string mapperPath(const std::string& name) {
    return "/dev/mapper/" + name;
}

} // namespace

void withoutDmCacheTuning(Capabilities& capabilities) {
    capabilities.sequentialCutoff = false;
    capabilities.writebackPercent = false;
    capabilities.noSequentialCutoffReason =
        "dm-cache's smq policy has no sequential cutoff (sequential_threshold was an mq "
        "tunable; since Linux 4.6 mq is smq, which ignores it)";
    capabilities.noWritebackPercentReason =
        "dm-cache writes dirty blocks back as its policy decides, not down to a share of the "
        "cache";
}

Expected<DmCacheStatus> parseDmCacheStatus(std::string_view line) {
    std::istringstream in{std::string(line)};
    std::vector<std::string> words;
    for (std::string word; in >> word;) {
        words.push_back(word);
    }
    // "0 <sectors> cache <md block> <used>/<total> <block> <used>/<total> <rh> <rm> <wh> <wm>
    //  <demotions> <promotions> <dirty> <#features> <features>* <#core> <core>* <policy> …"
    std::size_t at = 0;
    if (words.size() > 3 && words[2] == "cache") {
        at = 3;
    }
    if (words.size() < at + 12) {
        return fail(ErrorCode::Parse, "short dm-cache status: '" + std::string(line) + "'");
    }
    DmCacheStatus status;
    try {
        status.cacheBlockSectors = std::stoull(words[at + 2]);
        auto used = parseFraction(words[at + 3]);
        if (!used) {
            return std::unexpected(used.error());
        }
        status.usedBlocks = used->first;
        status.totalBlocks = used->second;
        status.readHits = std::stoull(words[at + 4]);
        status.readMisses = std::stoull(words[at + 5]);
        status.writeHits = std::stoull(words[at + 6]);
        status.writeMisses = std::stoull(words[at + 7]);
        status.dirtyBlocks = std::stoull(words[at + 10]);
        std::size_t next = at + 11;
        const auto features = std::stoull(words.at(next));
        for (std::uint64_t i = 0; i < features; ++i) {
            if (words.at(next + 1 + i) == "writeback") {
                status.writeBack = true;
            }
        }
        next += 1 + features;
        const auto coreArgs = std::stoull(words.at(next));
        next += 1 + coreArgs;
        status.policy = words.at(next);
    } catch (const std::exception&) {
        return fail(ErrorCode::Parse, "malformed dm-cache status: '" + std::string(line) + "'");
    }
    return status;
}

std::string dmCacheTable(std::uint64_t originSectors, const std::string& meta,
                         const std::string& data, const std::string& origin, CacheMode mode,
                         std::string_view policy) {
    return fmt::format("0 {} cache {} {} {} {} 1 {} {} 0", originSectors, meta, data, origin,
                       kDmCacheBlockSectors,
                       mode == CacheMode::WriteBack ? "writeback" : "writethrough", policy);
}

std::uint64_t dmCacheMetadataBytes(std::uint64_t cacheBytes) {
    constexpr std::uint64_t mib = Bytes::mib(1).value;
    const std::uint64_t blocks = cacheBytes / (kDmCacheBlockSectors * 512);
    const std::uint64_t bytes = 4 * mib + 16 * blocks;
    const std::uint64_t rounded = (bytes + mib - 1) / mib * mib;
    return std::max<std::uint64_t>(rounded, 8 * mib);
}

std::vector<std::string> DmCacheBackend::dmProblems() const {
    std::vector<std::string> problems;
    if (!m_env.isRoot) {
        problems.push_back("needs root (run through ssdkeeper-helper)");
    }
    if (auto problem = m_env.modulesProblem({"dm_mod", "dm_cache", "dm_cache_smq"}); problem) {
        problems.push_back(*problem);
    }
    if (!m_env.findTool("dmsetup")) {
        problems.push_back("dmsetup is not installed (Debian package dmsetup)");
    }
    return problems;
}

Expected<DmCacheStatus> DmCacheBackend::status(const std::string& name) const {
    auto result = m_env.runChecked({"dmsetup", "status", name});
    if (!result) {
        return std::unexpected(result.error());
    }
    return parseDmCacheStatus(result->standardOutput);
}

Expected<void> DmCacheBackend::load(const ActiveCache& active, const std::string& table) {
    const std::string& name = active.plan.name;
    if (auto reload = m_env.runChecked({"dmsetup", "reload", name, "--table", table}); !reload) {
        return std::unexpected(reload.error());
    }
    // suspend flushes what is in flight; resume switches to the new table.
    if (auto suspend = m_env.runChecked({"dmsetup", "suspend", name}); !suspend) {
        return std::unexpected(suspend.error());
    }
    if (auto resume = m_env.runChecked({"dmsetup", "resume", name}); !resume) {
        return std::unexpected(resume.error());
    }
    if (table.find(" smq ") != std::string::npos) {
        tune(name);
    }
    return {};
}

void DmCacheBackend::tune(const std::string& name) {
    // dm-cache moves at most migration_threshold sectors at a time (default 2048 = 1 MiB),
    // which makes a RAM cache warm up slowly; RAM can take far more.
    (void)m_env.run({"dmsetup", "message", name, "0", "migration_threshold",
                     std::to_string(kMigrationThresholdSectors)});
}

Expected<ActiveCache> DmCacheBackend::enable(const CachePlan& plan) {
    if (auto checked = checkPlan(plan, capabilities()); !checked) {
        return std::unexpected(checked.error());
    }
    if (auto probed = probe(); !probed.available) {
        return fail(ErrorCode::Unsupported, name() + " is unavailable: " + probed.reasonText());
    }
    for (const char* module : {"dm_cache", "dm_cache_smq"}) {
        if (auto loaded = m_env.loadModule(module); !loaded) {
            return std::unexpected(loaded.error());
        }
    }
    auto originBytes = m_env.deviceBytes(plan.origin);
    if (!originBytes) {
        return std::unexpected(originBytes.error());
    }
    auto devices = createCacheDevices(plan);
    if (!devices) {
        return std::unexpected(devices.error());
    }
    ActiveCache active{name(), plan, mapperPath(plan.name), devices->resources};
    active.resources["meta"] = devices->meta;
    active.resources["data"] = devices->data;
    active.resources["origin_sectors"] = *originBytes / 512;
    const std::string table = dmCacheTable(*originBytes / 512, devices->meta, devices->data,
                                           plan.origin, plan.mode, "smq");
    if (auto created = m_env.runChecked({"dmsetup", "create", plan.name, "--table", table});
        !created) {
        (void)removeCacheDevices(devices->resources);
        return std::unexpected(
            Error(created.error()).addContext("creating " + mapperPath(plan.name)));
    }
    // udev makes the node; wait for it so the caller can mount it right away. Without udev
    // (a minimal system, the lab VM) dmsetup makes it.
    (void)m_env.run({"udevadm", "settle", "--timeout=10"}, 15s);
    (void)m_env.run({"dmsetup", "mknodes", plan.name});
    tune(plan.name);
    log::get("cachectl")
        ->info("{}: {} caches {} ({} bytes, {})", name(), active.cachedDevice, plan.origin,
               plan.cacheBytes, toString(plan.mode));
    return active;
}

Expected<void> DmCacheBackend::clean(const ActiveCache& active, std::optional<CacheMode> switchTo) {
    auto current = status(active.plan.name);
    if (!current) {
        return std::unexpected(current.error());
    }
    if (current->dirtyBlocks == 0 && !switchTo) {
        return {};
    }
    const auto& resources = active.resources;
    const std::uint64_t sectors = resources.value("origin_sectors", std::uint64_t{0});
    const std::string meta = resources.value("meta", "");
    const std::string data = resources.value("data", "");
    const CacheMode mode =
        switchTo.value_or(current->writeBack ? CacheMode::WriteBack : CacheMode::WriteThrough);
    if (auto cleaner =
            load(active, dmCacheTable(sectors, meta, data, active.plan.origin, mode, "cleaner"));
        !cleaner) {
        return std::unexpected(cleaner.error());
    }
    for (int poll = 0; poll < kCleanPolls; ++poll) {
        auto now = status(active.plan.name);
        if (!now) {
            return std::unexpected(now.error());
        }
        if (now->dirtyBlocks == 0) {
            return load(active, dmCacheTable(sectors, meta, data, active.plan.origin, mode, "smq"));
        }
        m_env.sleep(250ms);
    }
    return fail(ErrorCode::Timeout, "dirty blocks of " + mapperPath(active.plan.name) +
                                        " were not written back within 5 minutes");
}

Expected<void> DmCacheBackend::flush(const ActiveCache& active) {
    // Write-through has nothing dirty; write-back drains through the cleaner policy.
    return withContext(clean(active), "flushing " + mapperPath(active.plan.name));
}

Expected<void> DmCacheBackend::toLinear(const ActiveCache& active) {
    const std::uint64_t sectors = active.resources.value("origin_sectors", std::uint64_t{0});
    return load(active, fmt::format("0 {} linear {} 0", sectors, active.plan.origin));
}

Expected<void> DmCacheBackend::disable(const ActiveCache& active) {
    if (auto flushed = flush(active); !flushed) {
        return std::unexpected(Error(flushed.error()).addContext("disabling the cache"));
    }
    if (auto removed = m_env.runChecked({"dmsetup", "remove", "--retry", active.plan.name});
        !removed) {
        return std::unexpected(Error(removed.error()).addContext("disabling the cache"));
    }
    // Without udev the node may stay behind; mknodes drops the node of a removed device.
    (void)m_env.run({"dmsetup", "mknodes", active.plan.name});
    return removeCacheDevices(active.resources);
}

Expected<void> DmCacheBackend::setMode(ActiveCache& active, CacheMode mode) {
    if (mode == CacheMode::WriteBack && !capabilities().writeBack) {
        return fail(ErrorCode::Unsupported, name() + " has no write-back mode");
    }
    if (mode == CacheMode::WriteThrough) {
        // The cleaner runs in write-through already: a write that comes while it drains goes
        // to the origin too, so nothing is dirty once it has drained. (Draining in write-back
        // first let writes between the drain and the switch stay dirty under smq.)
        if (auto cleaned = clean(active, mode); !cleaned) {
            return std::unexpected(
                Error(cleaned.error())
                    .addContext("switching " + mapperPath(active.plan.name) + " to write-through"));
        }
        active.plan.mode = mode;
        return {};
    }
    const auto& resources = active.resources;
    if (auto loaded =
            load(active, dmCacheTable(resources.value("origin_sectors", std::uint64_t{0}),
                                      resources.value("meta", ""), resources.value("data", ""),
                                      active.plan.origin, mode, "smq"));
        !loaded) {
        return std::unexpected(loaded.error());
    }
    active.plan.mode = mode;
    return {};
}

Expected<void> DmCacheBackend::resize(ActiveCache& active, std::uint64_t cacheBytes) {
    if (!capabilities().resizeLive) {
        return fail(ErrorCode::Unsupported,
                    name() + " cannot resize its cache; disable and enable it again");
    }
    CachePlan plan = active.plan;
    plan.cacheBytes = cacheBytes;
    if (auto checked = checkPlan(plan, capabilities()); !checked) {
        return std::unexpected(checked.error());
    }
    // Drain, serve the origin straight through while the cache devices are replaced.
    if (auto flushed = flush(active); !flushed) {
        return std::unexpected(flushed.error());
    }
    if (auto linear = toLinear(active); !linear) {
        return std::unexpected(linear.error());
    }
    if (auto removed = removeCacheDevices(active.resources); !removed) {
        return std::unexpected(removed.error());
    }
    auto devices = createCacheDevices(plan);
    if (!devices) {
        return std::unexpected(Error(devices.error())
                                   .addContext("resizing: " + mapperPath(plan.name) +
                                               " now maps the origin without a cache"));
    }
    Json resources = devices->resources;
    resources["meta"] = devices->meta;
    resources["data"] = devices->data;
    resources["origin_sectors"] = active.resources.value("origin_sectors", std::uint64_t{0});
    active.resources = resources;
    active.plan = plan;
    return load(active, dmCacheTable(resources["origin_sectors"].get<std::uint64_t>(),
                                     devices->meta, devices->data, plan.origin, plan.mode, "smq"));
}

Expected<CacheStats> DmCacheBackend::stats(const ActiveCache& active) const {
    auto current = status(active.plan.name);
    if (!current) {
        return std::unexpected(current.error());
    }
    const std::uint64_t blockBytes = current->cacheBlockSectors * 512;
    CacheStats stats;
    stats.hits = current->readHits + current->writeHits;
    stats.misses = current->readMisses + current->writeMisses;
    stats.dirtyBytes = current->dirtyBlocks * blockBytes;
    stats.cacheBytes = current->totalBlocks * blockBytes;
    stats.logicalBytes = current->usedBlocks * blockBytes;
    stats.mode = current->writeBack ? CacheMode::WriteBack : CacheMode::WriteThrough;
    addDeviceStats(active.resources, stats);
    return stats;
}

} // namespace ssdk::cachectl
