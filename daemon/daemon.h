#pragma once
// Daemon: one ssdkeeper-cached process — an export (served store) per cached device, the NBD
// server for them and the control socket. Control requests (status, stats, flush, mode,
// resize) are answered by handleControl, which the control socket and tests call alike.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/base/json.h"
#include "core/cachectl/nbd/export.h"
#include "core/cachectl/nbd/server.h"
#include "daemon/control_server.h"
#include "daemon/daemon_config.h"

namespace ssdk::daemon {

class Daemon {
public:
    // Opens every backing store, builds the served stores and binds the sockets. Nothing is
    // served until start().
    static Expected<std::unique_ptr<Daemon>> create(DaemonConfig config);
    ~Daemon();
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    void start();
    // Stops serving (running requests finish and reply) and flushes every export. Returns the
    // first flush failure; later exports are still flushed.
    Expected<void> shutdown();

    // One control request → its reply: {"ok": true, ...} or {"ok": false, "error": {...}}.
    Json handleControl(const Json& request);

    std::optional<std::uint16_t> tcpPort() const { return m_tcpPort; }
    const DaemonConfig& config() const { return m_config; }

private:
    struct Hosted {
        ExportConfig config;
        std::shared_ptr<cachectl::nbd::Export> exported;
        // The cache engine inside exported's store (null: pass-through). Guarded by
        // m_controlMutex (export resize replaces it).
        std::shared_ptr<cachectl::engine::CacheEngine> engine;
        bool blockDevice = false;
        // The backing file's st_dev and st_ino when the daemon opened it.
        std::pair<std::uint64_t, std::uint64_t> identity;
    };

    explicit Daemon(DaemonConfig config);
    Expected<Hosted*> findHosted(const Json& request);
    Expected<Json> status();
    Json stats();
    Expected<Json> flush(const Json& request);
    Expected<Json> changeMode(const Json& request);
    Expected<Json> resize(const Json& request);
    Expected<Json> resizeCache(Hosted& hosted, const Json& sizeField);
    Expected<Json> resizeExport(Hosted& hosted, const Json& request);

    DaemonConfig m_config;
    std::vector<Hosted> m_hosted;
    std::unique_ptr<cachectl::nbd::Server> m_server;
    std::unique_ptr<ControlServer> m_control;
    std::optional<std::uint16_t> m_tcpPort;
    std::chrono::steady_clock::time_point m_started;
    // One resize or mode change at a time; guards Hosted::engine.
    std::mutex m_controlMutex;
    bool m_shutDown = false;
};

} // namespace ssdk::daemon
