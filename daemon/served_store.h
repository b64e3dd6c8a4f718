#pragma once
// The one place that decides what an export serves on top of its backing store.

#include <memory>
#include <string>

#include "core/cachectl/block_store.h"
#include "core/cachectl/engine/cache_engine.h"
#include "daemon/daemon_config.h"

namespace ssdk::daemon {

struct ServedStore {
    // What the NBD server serves: the cache engine, or the backing store itself. It owns the
    // backing store (and the engine), so it may outlive the export's replacement of it.
    std::shared_ptr<cachectl::BlockStore> store;
    // The engine inside `store` (same owner), null without a cache.
    std::shared_ptr<cachectl::engine::CacheEngine> engine;
};

// Builds the store an export serves over its backing store: a CacheEngine of
// config.cache.cacheBytes in front of it, or (cacheBytes 0) the backing store itself.
Expected<ServedStore> makeServedStore(const DaemonConfig& config, const ExportConfig& exported,
                                      std::unique_ptr<cachectl::BlockStore> backing);

// What status reports as an export's cache mode: "pass-through" without an engine, else the
// engine's write mode ("write-through", "write-back").
std::string cacheModeOf(const ServedStore& served);

} // namespace ssdk::daemon
