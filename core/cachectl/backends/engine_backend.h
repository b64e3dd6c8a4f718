#pragma once
// Backend "engine": ssdkeeper-cached (docs/daemon.md) serves the origin through its RAM cache
// engine over NBD on a Unix socket, and the kernel's NBD client attaches it as /dev/nbdN.
#include <filesystem>

#include "core/cachectl/backend.h"
#include "core/cachectl/host_env.h"

namespace ssdk::cachectl {

// The daemon's command line for a plan (socket and control paths under runDir).
std::vector<std::string> engineDaemonArgv(const std::filesystem::path& daemon,
                                          const CachePlan& plan,
                                          const std::filesystem::path& runDir);
// Reads the statistics of one export from the control socket's `stats` reply. Accepts the
// counters on the export object or nested under "cache"/"engine".
Expected<CacheStats> engineStatsFromJson(const Json& reply, const std::string& exportName);

// Whether the daemon with this pid still runs: not a zombie, and its command line names this
// control socket (so a recycled pid is not mistaken for it). Reads /proc under env's root.
bool engineDaemonRunning(const HostEnv& env, int pid, const std::string& control);

// One request/reply on the daemon's control socket (JSON lines).
Expected<Json> controlRequest(const std::filesystem::path& socket, const Json& request);

class EngineBackend final : public Backend {
public:
    explicit EngineBackend(HostEnv env, std::filesystem::path runDir = "/run/ssdkeeper")
        : m_env(std::move(env))
        , m_runDir(std::move(runDir)) {}

    std::string name() const override { return "engine"; }
    std::string title() const override { return "SSD Keeper cache engine (NBD)"; }
    Capabilities capabilities() const override;
    ProbeResult probe() const override;
    Expected<ActiveCache> enable(const CachePlan& plan) override;
    Expected<void> disable(const ActiveCache& active) override;
    // A dead daemon's /dev/nbdN is disconnected here, before the unmount (see Backend).
    Expected<void> releaseDeadDevice(const ActiveCache& active) override;
    Expected<void> flush(const ActiveCache& active) override;
    Expected<void> setMode(ActiveCache& active, CacheMode mode) override;
    Expected<void> resize(ActiveCache& active, std::uint64_t cacheBytes) override;
    Expected<CacheStats> stats(const ActiveCache& active) const override;

    // The daemon binary, or empty when none is installed.
    std::optional<std::filesystem::path> daemonPath() const;

private:
    bool daemonRunning(const ActiveCache& active) const;
    Expected<Json> control(const ActiveCache& active, Json request) const;
    // Disconnects a dead daemon's /dev/nbdN: the kernel then fails the requests it still holds
    // (it set no timeout, so it would wait for their replies forever).
    void disconnectDead(const ActiveCache& active) const;
    // disable() after the daemon was killed or crashed: detach /dev/nbdN, remove its sockets.
    Expected<void> detachAfterCrash(const ActiveCache& active) const;
    Expected<std::string> freeNbdDevice() const;
    Expected<void> stopDaemon(const ActiveCache& active) const;

    HostEnv m_env;
    std::filesystem::path m_runDir;
};

} // namespace ssdk::cachectl
