#include "daemon/daemon.h"

#include <cerrno>
#include <fmt/core.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/bytes.h"
#include "core/base/log.h"
#include "daemon/served_store.h"

namespace ssdk::daemon {

namespace {

Json errorReply(const Error& error) {
    return Json{{"ok", false}, {"error", toJson(error)}};
}

// The export's device or file: never through a symbolic link, a block device or a regular
// file of the daemon's own user (FileBlockStore::open).
Expected<cachectl::FileBlockStore> openBackingFile(const ExportConfig& exported) {
    auto store = cachectl::FileBlockStore::open(exported.backing);
    if (!store) {
        return std::unexpected(
            std::move(store.error()).addContext(fmt::format("opening export '{}'", exported.name)));
    }
    return store;
}

Expected<std::unique_ptr<cachectl::FileBlockStore>> openBacking(const ExportConfig& exported) {
    auto store = openBackingFile(exported);
    if (!store) {
        return std::unexpected(store.error());
    }
    if (store->size() == 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("export '{}': {} is empty (0 bytes): there is nothing to serve",
                                exported.name, exported.backing.string()));
    }
    return std::make_unique<cachectl::FileBlockStore>(std::move(*store));
}

// The machine's RAM: no cache may be larger (a typo'd size would make the daemon allocate
// until the kernel kills it, with the dirty blocks of every export).
std::uint64_t physicalRamBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0) {
        return std::numeric_limits<std::uint64_t>::max();
    }
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

// The engine's statistics (docs/daemon.md, "stats"); null for a pass-through export.
Json cacheStatsOf(const cachectl::engine::CacheEngine* engine) {
    if (engine == nullptr) {
        return nullptr;
    }
    const auto s = engine->stats();
    const auto& config = engine->config();
    return Json{{"mode", std::string(toString(engine->writeMode()))},
                {"compression", config.compression ? "lz4" : "none"},
                {"policy", config.policy},
                {"sequential_cutoff", config.sequentialCutoff},
                {"capacity_bytes", s.ramBytes},
                {"capacity_blocks", s.capacityBlocks},
                {"cached_blocks", s.cachedBlocks},
                {"ram_used_bytes", s.physicalBytes + s.metadataBytes},
                {"hits", s.readHits},
                {"lock_free_hits", s.lockFreeHits},
                {"misses", s.readMisses},
                {"hit_ratio", s.hitRatio()},
                {"bypassed", s.bypassed},
                {"writes", s.writes},
                {"writeback_ops", s.writebackOps},
                {"writeback_blocks", s.writebackBlocks},
                {"writeback_errors", s.writebackErrors},
                {"dirty_bytes", s.dirtyBytes},
                {"logical_bytes", s.logicalBytes},
                {"physical_bytes", s.physicalBytes},
                {"compression_ratio", s.compressionRatio()},
                {"metadata_bytes", s.metadataBytes},
                {"huge_page_bytes", s.hugePageBytes}};
}

Json statsOf(const cachectl::nbd::Export& exported) {
    const auto& s = exported.stats();
    const auto load = [](const auto& counter) { return counter.load(std::memory_order_relaxed); };
    return Json{{"name", exported.name()},
                {"read_ops", load(s.readOps)},
                {"read_bytes", load(s.readBytes)},
                {"write_ops", load(s.writeOps)},
                {"write_bytes", load(s.writeBytes)},
                {"flush_ops", load(s.flushOps)},
                {"trim_ops", load(s.trimOps)},
                {"trim_bytes", load(s.trimBytes)},
                {"zero_ops", load(s.zeroOps)},
                {"zero_bytes", load(s.zeroBytes)},
                {"error_replies", load(s.errorReplies)},
                {"connections_total", load(s.connectionsTotal)},
                {"connections_active", load(s.connectionsActive)}};
}

} // namespace

Daemon::Daemon(DaemonConfig config)
    : m_config(std::move(config))
    , m_started(std::chrono::steady_clock::now()) {}

Daemon::~Daemon() {
    (void)shutdown();
}

Expected<std::unique_ptr<Daemon>> Daemon::create(DaemonConfig config) {
    if (auto valid = validate(config); !valid) {
        return std::unexpected(valid.error());
    }
    std::unique_ptr<Daemon> daemon(new Daemon(std::move(config)));
    std::vector<std::shared_ptr<cachectl::nbd::Export>> exports;
    for (const auto& exportConfig : daemon->m_config.exports) {
        auto backing = openBacking(exportConfig);
        if (!backing) {
            return std::unexpected(backing.error());
        }
        // What was opened, not what the path names now.
        const bool blockDevice = (*backing)->isBlockDevice();
        const auto identity = (*backing)->identity();
        auto served = makeServedStore(daemon->m_config, exportConfig, std::move(*backing));
        if (!served) {
            return std::unexpected(served.error());
        }
        auto exported = std::make_shared<cachectl::nbd::Export>(
            exportConfig.name, served->store, cacheModeOf(*served), daemon->m_config.writeMode);
        exports.push_back(exported);
        daemon->m_hosted.push_back(Hosted{.config = exportConfig,
                                          .exported = exported,
                                          .engine = served->engine,
                                          .blockDevice = blockDevice,
                                          .identity = identity});
    }
    daemon->m_server = std::make_unique<cachectl::nbd::Server>(
        std::move(exports), cachectl::nbd::ServerOptions{
                                .threadsPerConnection = daemon->m_config.threadsPerConnection});
    if (auto listening = daemon->m_server->listenUnix(daemon->m_config.socket); !listening) {
        return std::unexpected(listening.error());
    }
    if (daemon->m_config.tcp) {
        auto port =
            daemon->m_server->listenTcp(daemon->m_config.tcp->host, daemon->m_config.tcp->port);
        if (!port) {
            return std::unexpected(port.error());
        }
        daemon->m_tcpPort = *port;
    }
    if (daemon->m_config.control) {
        Daemon* self = daemon.get();
        auto control =
            ControlServer::listen(*daemon->m_config.control, [self](const Json& request) {
                return self->handleControl(request);
            });
        if (!control) {
            return std::unexpected(control.error());
        }
        daemon->m_control = std::move(*control);
    }
    return daemon;
}

void Daemon::start() {
    m_server->start();
    if (m_control) {
        m_control->start();
    }
}

Expected<void> Daemon::shutdown() {
    if (m_shutDown) {
        return {};
    }
    m_shutDown = true;
    if (m_control) {
        m_control->stop();
    }
    if (m_server) {
        m_server->stop();
    }
    Expected<void> result;
    for (const auto& hosted : m_hosted) {
        auto flushed = hosted.exported->store()->flush();
        if (!flushed) {
            log::get("daemon")->error("flushing export '{}' at shutdown: {}", hosted.config.name,
                                      flushed.error().describe());
            if (result) {
                result = std::unexpected(
                    std::move(flushed.error())
                        .addContext(fmt::format("flushing export '{}'", hosted.config.name)));
            }
        }
    }
    return result;
}

Json Daemon::handleControl(const Json& request) {
    const auto cmd = request.find("cmd");
    if (cmd == request.end() || !cmd->is_string()) {
        return errorReply(Error(ErrorCode::InvalidArgument,
                                "a control request needs \"cmd\": status, stats, flush, mode "
                                "or resize"));
    }
    const std::string name = cmd->get<std::string>();
    Expected<Json> reply =
        fail(ErrorCode::InvalidArgument, fmt::format("unknown control command '{}'", name));
    if (name == "status") {
        reply = status();
    } else if (name == "stats") {
        reply = stats();
    } else if (name == "flush") {
        reply = flush(request);
    } else if (name == "mode") {
        reply = changeMode(request);
    } else if (name == "resize") {
        reply = resize(request);
    }
    if (!reply) {
        return errorReply(reply.error());
    }
    (*reply)["ok"] = true;
    return *reply;
}

Expected<Daemon::Hosted*> Daemon::findHosted(const Json& request) {
    const auto name = request.find("export");
    if (name == request.end()) {
        if (m_hosted.size() == 1) {
            return &m_hosted.front();
        }
        return fail(ErrorCode::InvalidArgument,
                    "this daemon serves several exports: name one with \"export\"");
    }
    if (!name->is_string()) {
        return fail(ErrorCode::InvalidArgument, "\"export\" must be a string");
    }
    for (auto& hosted : m_hosted) {
        if (hosted.config.name == name->get<std::string>()) {
            return &hosted;
        }
    }
    return fail(ErrorCode::NotFound, fmt::format("no export named '{}'", name->get<std::string>()));
}

Expected<Json> Daemon::status() {
    const std::scoped_lock lock(m_controlMutex);
    Json exports = Json::array();
    for (const auto& hosted : m_hosted) {
        const auto store = hosted.exported->store();
        exports.push_back(Json{
            {"name", hosted.config.name},
            {"backing", hosted.config.backing.string()},
            {"backing_kind", hosted.blockDevice ? "block-device" : "file"},
            {"size", store->size()},
            {"block_size", store->blockSize()},
            {"cache_mode", hosted.exported->cacheMode()},
            {"cache_bytes", hosted.engine ? hosted.engine->stats().ramBytes : std::uint64_t{0}},
            {"write_mode", std::string(toString(hosted.exported->writeMode()))},
            {"connections",
             hosted.exported->stats().connectionsActive.load(std::memory_order_relaxed)}});
    }
    Json daemon{{"pid", ::getpid()},
                {"socket", m_config.socket.string()},
                {"threads_per_connection", m_config.threadsPerConnection},
                {"uptime_s", std::chrono::duration_cast<std::chrono::seconds>(
                                 std::chrono::steady_clock::now() - m_started)
                                 .count()}};
    if (m_tcpPort) {
        daemon["tcp"] = fmt::format("{}:{}", m_config.tcp->host, *m_tcpPort);
    }
    if (m_config.control) {
        daemon["control"] = m_config.control->string();
    }
    return Json{{"daemon", daemon}, {"exports", exports}};
}

Json Daemon::stats() {
    const std::scoped_lock lock(m_controlMutex);
    Json exports = Json::array();
    for (const auto& hosted : m_hosted) {
        Json entry = statsOf(*hosted.exported);
        entry["cache"] = cacheStatsOf(hosted.engine.get());
        exports.push_back(std::move(entry));
    }
    return Json{{"exports", exports}};
}

Expected<Json> Daemon::flush(const Json& request) {
    std::vector<Hosted*> targets;
    if (request.contains("export")) {
        auto hosted = findHosted(request);
        if (!hosted) {
            return std::unexpected(hosted.error());
        }
        targets.push_back(*hosted);
    } else {
        for (auto& hosted : m_hosted) {
            targets.push_back(&hosted);
        }
    }
    Json flushed = Json::array();
    for (auto* hosted : targets) {
        if (auto result = hosted->exported->store()->flush(); !result) {
            return std::unexpected(
                std::move(result.error())
                    .addContext(fmt::format("flushing export '{}'", hosted->config.name)));
        }
        flushed.push_back(hosted->config.name);
    }
    return Json{{"flushed", flushed}};
}

Expected<Json> Daemon::changeMode(const Json& request) {
    const std::scoped_lock lock(m_controlMutex);
    auto hosted = findHosted(request);
    if (!hosted) {
        return std::unexpected(hosted.error());
    }
    const auto cacheField = request.find("mode");
    const auto modeField = request.find("write_mode");
    const bool hasCache = cacheField != request.end();
    const bool hasWrite = modeField != request.end();
    if ((!hasCache && !hasWrite) || (hasCache && !cacheField->is_string()) ||
        (hasWrite && !modeField->is_string())) {
        return fail(ErrorCode::InvalidArgument,
                    "\"mode\" needs \"mode\" (the cache's) and/or \"write_mode\" (NBD's): "
                    "\"write-back\" or \"write-through\"");
    }
    auto& exported = *(*hosted)->exported;
    Json reply{{"export", exported.name()}};
    if (hasCache) {
        auto mode = cacheModeFromString(cacheField->get<std::string>());
        if (!mode) {
            return std::unexpected(mode.error());
        }
        const auto& engine = (*hosted)->engine;
        if (!engine) {
            return fail(ErrorCode::Unsupported,
                        fmt::format("export '{}' has no cache (the daemon was started without "
                                    "--cache-size)",
                                    exported.name()));
        }
        const auto previous = engine->writeMode();
        // Switching to write-through writes every dirty block back and flushes first.
        auto switched = engine->setWriteMode(*mode);
        exported.replaceStore(exported.store(), std::string(toString(engine->writeMode())));
        if (!switched) {
            return std::unexpected(switched.error());
        }
        log::get("daemon")->info("export '{}' cache mode {} -> {}", exported.name(),
                                 toString(previous), toString(*mode));
        reply["mode"] = std::string(toString(*mode));
        reply["previous_mode"] = std::string(toString(previous));
    }
    if (hasWrite) {
        auto mode = cachectl::nbd::writeModeFromString(modeField->get<std::string>());
        if (!mode) {
            return std::unexpected(mode.error());
        }
        const auto previous = exported.writeMode();
        exported.setWriteMode(*mode);
        if (*mode == cachectl::nbd::WriteMode::WriteThrough) {
            // Writes acknowledged before the switch become durable now, as write-through
            // promises.
            if (auto flushed = exported.store()->flush(); !flushed) {
                exported.setWriteMode(previous);
                return std::unexpected(flushed.error());
            }
        }
        log::get("daemon")->info("export '{}' write mode {} -> {}", exported.name(),
                                 toString(previous), toString(*mode));
        reply["write_mode"] = std::string(toString(*mode));
        reply["previous"] = std::string(toString(previous));
    }
    return reply;
}

Expected<Json> Daemon::resize(const Json& request) {
    const std::scoped_lock lock(m_controlMutex);
    auto found = findHosted(request);
    if (!found) {
        return std::unexpected(found.error());
    }
    Hosted& hosted = **found;
    const auto cacheField = request.find("cache_size");
    const bool hasSize = request.contains("size");
    if (cacheField != request.end() && hasSize) {
        return fail(ErrorCode::InvalidArgument,
                    "\"resize\" takes \"size\" (the export's) or \"cache_size\" (the cache's "
                    "RAM), not both");
    }
    if (cacheField != request.end()) {
        return resizeCache(hosted, *cacheField);
    }
    return resizeExport(hosted, request);
}

Expected<Json> Daemon::resizeCache(Hosted& hosted, const Json& sizeField) {
    if (!hosted.engine) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("export '{}' has no cache (the daemon was started without "
                                "--cache-size); restart it with one",
                                hosted.config.name));
    }
    std::uint64_t bytes = 0;
    if (sizeField.is_number_integer() &&
        (sizeField.is_number_unsigned() || sizeField.get<std::int64_t>() >= 0)) {
        bytes = sizeField.get<std::uint64_t>();
    } else if (sizeField.is_string()) {
        auto parsed = parseSize(sizeField.get<std::string>());
        if (!parsed) {
            return std::unexpected(parsed.error());
        }
        bytes = parsed->value;
    } else {
        return fail(ErrorCode::InvalidArgument,
                    "\"cache_size\" must be bytes (a number, or a string like \"512M\")");
    }
    if (bytes == 0) {
        return fail(ErrorCode::InvalidArgument,
                    "a cache cannot be resized to 0 bytes (restart the daemon without "
                    "--cache-size to serve the device directly)");
    }
    if (bytes > physicalRamBytes()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("a cache of {} bytes is larger than this machine's RAM ({} bytes)",
                                bytes, physicalRamBytes()));
    }
    const std::uint64_t previous = hosted.engine->stats().ramBytes;
    if (auto resized = hosted.engine->resize(bytes); !resized) {
        return std::unexpected(resized.error());
    }
    const auto after = hosted.engine->stats();
    log::get("daemon")->info("export '{}' cache resized from {} to {} bytes", hosted.config.name,
                             previous, bytes);
    return Json{{"export", hosted.config.name},
                {"cache_size", bytes},
                {"previous_cache_size", previous},
                {"capacity_blocks", after.capacityBlocks}};
}

Expected<Json> Daemon::resizeExport(Hosted& hosted, const Json& request) {
    const auto sizeField = request.find("size");
    if (sizeField == request.end() || !sizeField->is_number_integer() ||
        (!sizeField->is_number_unsigned() && sizeField->get<std::int64_t>() < 0)) {
        return fail(ErrorCode::InvalidArgument,
                    "\"resize\" needs \"size\" (the export's bytes) or \"cache_size\" (the "
                    "cache's RAM bytes)");
    }
    const auto newSize = sizeField->get<std::uint64_t>();
    const auto shrinkField = request.find("allow_shrink");
    if (shrinkField != request.end() && !shrinkField->is_boolean()) {
        return fail(ErrorCode::InvalidArgument, "\"allow_shrink\" must be true or false");
    }
    const bool allowShrink = shrinkField != request.end() && shrinkField->get<bool>();
    if (hosted.blockDevice) {
        return fail(ErrorCode::Unsupported,
                    fmt::format("export '{}' is backed by block device {}: its size is the "
                                "device's",
                                hosted.config.name, hosted.config.backing.string()));
    }
    const auto current = hosted.exported->store();
    if (newSize == 0 || newSize % 4096 != 0 ||
        newSize > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max())) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("size {} is not a positive multiple of 4096", newSize));
    }
    if (newSize < current->size()) {
        if (!allowShrink) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("shrinking '{}' from {} to {} bytes drops data: pass "
                                    "\"allow_shrink\": true",
                                    hosted.config.name, current->size(), newSize));
        }
        if (hosted.exported->stats().connectionsActive.load() > 0) {
            return fail(ErrorCode::Busy,
                        fmt::format("export '{}' has NBD clients attached; shrink it after they "
                                    "disconnect",
                                    hosted.config.name));
        }
    }
    const std::uint64_t oldSize = current->size();
    // Resized through a descriptor opened as at start (no symlink followed), and only when
    // it is still the file the export was started with; checked before anything changes.
    auto backing = openBackingFile(hosted.config);
    if (!backing) {
        return std::unexpected(backing.error());
    }
    if (backing->identity() != hosted.identity) {
        return fail(ErrorCode::Busy,
                    fmt::format("{} is no longer the file export '{}' was started with; "
                                "not resizing it",
                                hosted.config.backing.string(), hosted.config.name));
    }
    DaemonConfig config = m_config;
    if (hosted.engine) {
        // The new engine keeps the cache's RAM and mode; the old one goes write-through so
        // requests still running on it write to the device, and everything dirty is written.
        config.cache.cacheBytes = hosted.engine->stats().ramBytes;
        config.cache.mode = hosted.engine->writeMode();
        if (auto switched = hosted.engine->setWriteMode(cachectl::engine::WriteMode::WriteThrough);
            !switched) {
            (void)hosted.engine->setWriteMode(config.cache.mode);
            return std::unexpected(switched.error());
        }
    }
    // A failure from here on leaves the export as it was, its cache in its mode again.
    const auto keepOld = [&](Error error) -> Expected<Json> {
        if (hosted.engine) {
            (void)hosted.engine->setWriteMode(config.cache.mode);
        }
        return std::unexpected(std::move(error));
    };
    if (auto flushed = current->flush(); !flushed) {
        return keepOld(flushed.error());
    }
    if (auto resized = backing->setFileSize(newSize); !resized) {
        return keepOld(resized.error());
    }
    auto served = makeServedStore(config, hosted.config,
                                  std::make_unique<cachectl::FileBlockStore>(std::move(*backing)));
    if (!served) {
        return keepOld(served.error());
    }
    hosted.exported->replaceStore(served->store, cacheModeOf(*served));
    hosted.engine = served->engine;
    log::get("daemon")->info("export '{}' resized from {} to {} bytes", hosted.config.name, oldSize,
                             newSize);
    // Attached clients keep the size they negotiated (simple NBD has no resize notice);
    // their requests are checked against the new size. New clients see the new size.
    return Json{{"export", hosted.config.name}, {"size", newSize}, {"previous_size", oldSize}};
}

} // namespace ssdk::daemon
