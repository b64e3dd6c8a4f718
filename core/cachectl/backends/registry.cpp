#include "core/cachectl/backends/registry.h"

#include "core/cachectl/backends/bcache_backend.h"
#include "core/cachectl/backends/dm_cache.h"
#include "core/cachectl/backends/engine_backend.h"

namespace ssdk::cachectl {

void addSystemBackends(BackendRegistry& registry, const HostEnv& env) {
    registry.add(std::make_unique<EngineBackend>(env));
    registry.add(std::make_unique<ZramCacheBackend>(env));
    registry.add(std::make_unique<BcacheBackend>(env));
    registry.add(std::make_unique<SsdCacheBackend>(env));
}

} // namespace ssdk::cachectl
