#pragma once
// The one place that decides what an export serves on top of its backing store.

#include <memory>
#include <string>

#include "core/cachectl/block_store.h"
#include "daemon/daemon_config.h"

namespace ssdk::daemon {

struct ServedStore {
    std::shared_ptr<cachectl::BlockStore> store;
    // What status reports as the cache mode of the export.
    std::string cacheMode;
};

// Builds the store an export serves over its backing store. Today this is the backing store
// itself, reported as the "pass-through" cache mode (no caching layer in between).
Expected<ServedStore> makeServedStore(const DaemonConfig& config, const ExportConfig& exported,
                                      std::unique_ptr<cachectl::BlockStore> backing);

} // namespace ssdk::daemon
