#pragma once
#include "core/cachectl/backend.h"
#include "core/cachectl/host_env.h"

namespace ssdk::cachectl {

// Every Linux backend, in the order the GUI offers them: engine, zram-writecache, bcache,
// ssd-cache. Built once at start-up and handed to the manager.
void addSystemBackends(BackendRegistry& registry, const HostEnv& env);

} // namespace ssdk::cachectl
