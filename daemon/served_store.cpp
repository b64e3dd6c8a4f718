#include "daemon/served_store.h"

#include <fmt/core.h>

namespace ssdk::daemon {

namespace {

// Owns a backing store and the engine over it; the engine goes first (its destructor writes
// dirty blocks back to the backing store).
struct CachedStore {
    std::unique_ptr<cachectl::BlockStore> backing;
    std::unique_ptr<cachectl::engine::CacheEngine> engine;
};

} // namespace

Expected<ServedStore> makeServedStore(const DaemonConfig& config, const ExportConfig& exported,
                                      std::unique_ptr<cachectl::BlockStore> backing) {
    if (config.cache.cacheBytes == 0) {
        return ServedStore{.store = std::shared_ptr<cachectl::BlockStore>(std::move(backing)),
                           .engine = nullptr};
    }
    auto owner = std::make_shared<CachedStore>();
    owner->backing = std::move(backing);
    cachectl::engine::CacheConfig engineConfig;
    engineConfig.ramBytes = config.cache.cacheBytes;
    engineConfig.writeMode = config.cache.mode;
    engineConfig.compression = config.cache.compression;
    engineConfig.dirtyHighWatermark = config.cache.dirtyHigh;
    engineConfig.dirtyLowWatermark = config.cache.dirtyLow;
    engineConfig.policy = config.cache.policy;
    engineConfig.sequentialCutoff = config.cache.sequentialCutoff;
    auto engine = cachectl::engine::CacheEngine::create(*owner->backing, engineConfig);
    if (!engine) {
        return std::unexpected(
            std::move(engine.error())
                .addContext(fmt::format("creating the cache of export '{}'", exported.name)));
    }
    owner->engine = std::move(*engine);
    auto* const raw = owner->engine.get();
    return ServedStore{.store = std::shared_ptr<cachectl::BlockStore>(owner, raw),
                       .engine = std::shared_ptr<cachectl::engine::CacheEngine>(owner, raw)};
}

std::string cacheModeOf(const ServedStore& served) {
    return served.engine ? std::string(toString(served.engine->writeMode())) : "pass-through";
}

} // namespace ssdk::daemon
