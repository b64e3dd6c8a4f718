#include "core/cachectl/backends/engine_backend.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/private_dir.h"
#include "core/base/unique_fd.h"
#include "core/cachectl/nbd/socket_io.h"

extern char** environ;

namespace ssdk::cachectl {

namespace {

using namespace std::chrono_literals;

// Present while the kernel has /dev/nbdN connected (or a user still holds it after a
// disconnect).
std::filesystem::path nbdPidPath(const std::string& device) {
    return std::filesystem::path("/sys/block") / kernelName(device) / "pid";
}

std::uint64_t firstOf(const Json& object, std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
        if (object.contains(key) && object[key].is_number_unsigned()) {
            return object[key].get<std::uint64_t>();
        }
        if (object.contains(key) && object[key].is_number_integer()) {
            return static_cast<std::uint64_t>(
                std::max<std::int64_t>(0, object[key].get<std::int64_t>()));
        }
    }
    return 0;
}

bool hasAny(const Json& object, std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
        if (object.contains(key)) {
            return true;
        }
    }
    return false;
}

} // namespace

bool engineDaemonRunning(const HostEnv& env, int pid, const std::string& control) {
    if (pid <= 0) {
        return false;
    }
    const std::filesystem::path proc = "/proc/" + std::to_string(pid);
    auto stat = env.read(proc / "stat");
    if (!stat) {
        return false;
    }
    // "PID (comm) S ...": the state follows the last ')' (comm may hold one itself).
    const auto close = stat->rfind(')');
    if (close == std::string::npos || close + 2 >= stat->size()) {
        return false;
    }
    const char state = (*stat)[close + 2];
    if (state == 'Z' || state == 'X' || state == 'x') {
        return false; // killed, not reaped yet
    }
    // A recycled pid is some other program: the daemon's command line names its control socket.
    auto cmdline = env.read(proc / "cmdline");
    return cmdline && !control.empty() && cmdline->find(control) != std::string::npos;
}

std::vector<std::string> engineDaemonArgv(const std::filesystem::path& daemon,
                                          const CachePlan& plan,
                                          const std::filesystem::path& runDir) {
    std::vector<std::string> argv{daemon.string(),
                                  "--export",
                                  plan.name + "=" + plan.origin,
                                  "--socket",
                                  (runDir / (plan.name + ".sock")).string(),
                                  "--control",
                                  (runDir / (plan.name + ".ctl")).string(),
                                  "--cache-size",
                                  std::to_string(plan.cacheBytes),
                                  "--compression",
                                  plan.compression == Compression::Lz4 ? "lz4" : "none",
                                  "--mode",
                                  std::string(toString(plan.mode))};
    if (plan.sequentialCutoff) {
        argv.insert(argv.end(), {"--sequential-cutoff", std::to_string(*plan.sequentialCutoff)});
    }
    return argv;
}

Expected<CacheStats> engineStatsFromJson(const Json& reply, const std::string& exportName) {
    if (!reply.is_object() || !reply.value("ok", false)) {
        return fail(ErrorCode::Protocol, "the daemon's stats request failed");
    }
    const Json* found = nullptr;
    if (!reply.contains("exports") || !reply["exports"].is_array()) {
        return fail(ErrorCode::Protocol, "the daemon's stats reply has no exports");
    }
    for (const auto& item : reply["exports"]) {
        if (item.value("name", "") == exportName) {
            found = &item;
        }
    }
    if (found == nullptr) {
        return fail(ErrorCode::NotFound, "the daemon serves no export '" + exportName + "'");
    }
    Json counters = *found;
    for (const char* nested : {"cache", "engine"}) {
        if (found->contains(nested) && (*found)[nested].is_object()) {
            counters = (*found)[nested];
        }
    }
    if (!hasAny(counters, {"hits", "read_hits"})) {
        return fail(ErrorCode::Unsupported, "ssdkeeper-cached reports no cache statistics for '" +
                                                exportName +
                                                "' (a daemon without the cache engine)");
    }
    CacheStats stats;
    stats.hits = firstOf(counters, {"hits", "read_hits"});
    stats.misses = firstOf(counters, {"misses", "read_misses"});
    stats.dirtyBytes = firstOf(counters, {"dirty_bytes"});
    stats.logicalBytes = firstOf(counters, {"logical_bytes"});
    stats.physicalBytes = firstOf(counters, {"physical_bytes"});
    stats.cacheBytes = firstOf(counters, {"cache_bytes", "capacity_bytes"});
    if (stats.cacheBytes == 0) {
        stats.cacheBytes = firstOf(counters, {"capacity_blocks"}) * 4096;
    }
    stats.ramUsedBytes = firstOf(counters, {"ram_used_bytes", "ram_bytes", "ram_used"});
    if (stats.ramUsedBytes == 0) {
        stats.ramUsedBytes = stats.physicalBytes + firstOf(counters, {"metadata_bytes"});
    }
    const std::string mode = counters.value("mode", found->value("write_mode", "write-through"));
    stats.mode = mode == "write-back" ? CacheMode::WriteBack : CacheMode::WriteThrough;
    if (counters.contains("sequential_cutoff")) {
        stats.sequentialCutoff = firstOf(counters, {"sequential_cutoff"});
    }
    return stats;
}

Expected<Json> controlRequest(const std::filesystem::path& socket, const Json& request) {
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
        return failErrno(errno, "creating a Unix socket");
    }
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = socket.string();
    if (path.size() >= sizeof(address.sun_path)) {
        return fail(ErrorCode::InvalidArgument, "control socket path too long: " + path);
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
        return failErrno(errno, "connecting to " + path);
    }
    // Only a daemon of root (or of this user) is believed.
    if (auto peer = nbd::checkUnixPeer(fd.get()); !peer) {
        return std::unexpected(std::move(peer.error()).addContext("talking to " + path));
    }
    timeval timeout{30, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    const std::string line = request.dump() + "\n";
    if (::send(fd.get(), line.data(), line.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(line.size())) {
        return failErrno(errno, "writing to " + path);
    }
    std::string reply;
    char buffer[4096];
    while (reply.find('\n') == std::string::npos) {
        const ssize_t got = ::recv(fd.get(), buffer, sizeof(buffer), 0);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return got == 0 ? fail(ErrorCode::Protocol, path + " closed without a reply")
                            : failErrno(errno, "reading from " + path);
        }
        reply.append(buffer, static_cast<std::size_t>(got));
    }
    auto json = parseJson(reply.substr(0, reply.find('\n')), "the daemon's reply");
    if (!json) {
        return std::unexpected(json.error());
    }
    if (!json->value("ok", false)) {
        return std::unexpected(
            json->contains("error")
                ? errorFromJson((*json)["error"])
                : Error(ErrorCode::Protocol, "the daemon refused " + request.dump()));
    }
    return json;
}

Capabilities EngineBackend::capabilities() const {
    Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compression = true;
    capabilities.resizeLive = true;
    capabilities.persistent = false;
    capabilities.ramBacked = true;
    capabilities.compressions = {Compression::None, Compression::Lz4};
    capabilities.sequentialCutoff = true; // ssdkeeper-cached --sequential-cutoff
    capabilities.writebackPercent = false;
    capabilities.noWritebackPercentReason =
        "the engine writes every dirty block back within a second, and above its dirty "
        "watermark at once; it keeps no share of the cache dirty";
    return capabilities;
}

std::optional<std::filesystem::path> EngineBackend::daemonPath() const {
    for (const auto& candidate : m_env.daemonCandidates) {
        if (m_env.exists(candidate)) {
            return candidate;
        }
    }
    return std::nullopt;
}

ProbeResult EngineBackend::probe() const {
    ProbeResult result;
    if (!m_env.isRoot) {
        result.reasons.push_back("needs root (run through ssdkeeper-helper)");
    }
    if (auto daemon = daemonPath(); !daemon) {
        result.reasons.push_back("ssdkeeper-cached is not installed");
    } else if (auto help = m_env.run({daemon->string(), "--help"}, 10s); !help) {
        result.reasons.push_back("ssdkeeper-cached does not start: " + help.error().describe());
    } else if ((help->standardOutput + help->standardError).find("--cache-size") ==
               std::string::npos) {
        result.reasons.push_back("ssdkeeper-cached at " + daemon->string() +
                                 " has no cache engine (no --cache-size option)");
    }
    if (auto problem = m_env.moduleProblem("nbd"); problem) {
        result.reasons.push_back(*problem);
    }
    if (!m_env.findTool("nbd-client")) {
        result.reasons.push_back("nbd-client is not installed (Debian package nbd-client)");
    }
    result.available = result.reasons.empty();
    return result;
}

Expected<std::string> EngineBackend::freeNbdDevice() const {
    for (int index = 0; index < 128; ++index) {
        const std::string name = "nbd" + std::to_string(index);
        if (!m_env.exists("/sys/block/" + name)) {
            break;
        }
        if (!m_env.exists("/sys/block/" + name + "/pid")) {
            return "/dev/" + name;
        }
    }
    return fail(ErrorCode::Busy, "no free /dev/nbdN device");
}

bool EngineBackend::daemonRunning(const ActiveCache& active) const {
    return engineDaemonRunning(m_env, active.resources.value("pid", -1),
                               active.resources.value("control", ""));
}

Expected<Json> EngineBackend::control(const ActiveCache& active, Json request) const {
    request["export"] = active.plan.name;
    auto reply = controlRequest(active.resources.value("control", ""), request);
    if (!reply && !daemonRunning(active)) {
        return fail(ErrorCode::NotFound,
                    "ssdkeeper-cached (pid " + std::to_string(active.resources.value("pid", -1)) +
                        ") serving " + active.cachedDevice +
                        " is not running (killed or crashed): what it had not written back is "
                        "lost, what was flushed is on " +
                        active.plan.origin + "; disable the cache to recover");
    }
    return reply;
}

Expected<ActiveCache> EngineBackend::enable(const CachePlan& plan) {
    if (auto checked = checkPlan(plan, capabilities()); !checked) {
        return std::unexpected(checked.error());
    }
    if (auto probed = probe(); !probed.available) {
        return fail(ErrorCode::Unsupported, "engine is unavailable: " + probed.reasonText());
    }
    if (auto loaded = m_env.loadModule("nbd"); !loaded) {
        return std::unexpected(loaded.error());
    }
    if (plan.sequentialCutoff) {
        // An ssdkeeper-cached older than the option would exit with a usage error.
        auto help = m_env.run({daemonPath()->string(), "--help"}, 10s);
        if (!help || (help->standardOutput + help->standardError).find("--sequential-cutoff") ==
                         std::string::npos) {
            return fail(ErrorCode::Unsupported,
                        "ssdkeeper-cached at " + daemonPath()->string() +
                            " has no --sequential-cutoff option: update it, or leave the "
                            "sequential cutoff at its default");
        }
    }
    auto nbd = freeNbdDevice();
    if (!nbd) {
        return std::unexpected(nbd.error());
    }
    // The daemon's sockets and log: in a directory only root can change, 0700 whatever the
    // umask (an existing one of another owner, writable by others or a symlink is refused).
    if (auto ready = ensurePrivateDirectory(m_runDir); !ready) {
        return std::unexpected(
            std::move(ready.error()).addContext("preparing the engine's run directory"));
    }
    const auto argv = engineDaemonArgv(*daemonPath(), plan, m_runDir);
    const std::filesystem::path logPath = m_runDir / (plan.name + ".log");

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // Its own session: the daemon outlives the helper that started it.
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    std::vector<char*> args;
    for (const auto& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        return failErrno(spawned, "starting " + argv[0]);
    }
    ActiveCache active{name(), plan, *nbd,
                       Json{{"pid", pid},
                            {"socket", (m_runDir / (plan.name + ".sock")).string()},
                            {"control", (m_runDir / (plan.name + ".ctl")).string()},
                            {"log", logPath.string()}}};
    // Ready once the control socket answers.
    bool ready = false;
    for (int attempt = 0; attempt < 100 && !ready; ++attempt) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            auto log = m_env.read(logPath);
            return fail(ErrorCode::ProcessFailed,
                        "ssdkeeper-cached exited at start: " + (log ? *log : std::string()));
        }
        ready = control(active, Json{{"cmd", "status"}}).has_value();
        if (!ready) {
            m_env.sleep(100ms);
        }
    }
    if (!ready) {
        (void)stopDaemon(active);
        return fail(ErrorCode::Timeout, "ssdkeeper-cached did not answer within 10 s");
    }
    auto attached =
        m_env.runChecked({"nbd-client", "-unix", active.resources["socket"].get<std::string>(),
                          "-N", plan.name, "-b", "4096", *nbd});
    if (!attached) {
        (void)stopDaemon(active);
        return std::unexpected(Error(attached.error()).addContext("attaching " + *nbd));
    }
    log::get("cachectl")->info("engine: {} caches {} (daemon pid {})", *nbd, plan.origin, pid);
    return active;
}

Expected<void> EngineBackend::stopDaemon(const ActiveCache& active) const {
    const pid_t pid = active.resources.value("pid", -1);
    if (!daemonRunning(active)) {
        return {};
    }
    ::kill(pid, SIGTERM); // it flushes every export before it exits
    for (int attempt = 0; attempt < 600; ++attempt) {
        int status = 0;
        (void)::waitpid(pid, &status, WNOHANG); // reaps it when we are its parent
        if (!daemonRunning(active)) {
            return {};
        }
        m_env.sleep(100ms);
    }
    return fail(ErrorCode::Timeout,
                "ssdkeeper-cached (pid " + std::to_string(pid) + ") did not stop within 60 s");
}

Expected<void> EngineBackend::flush(const ActiveCache& active) {
    auto reply = control(active, Json{{"cmd", "flush"}});
    if (!reply) {
        return std::unexpected(Error(reply.error()).addContext("flushing " + active.cachedDevice));
    }
    return {};
}

void EngineBackend::disconnectDead(const ActiveCache& active) const {
    log::get("cachectl")
        ->warn("engine: ssdkeeper-cached (pid {}) for {} is gone; disconnecting {} (its unflushed "
               "writes went with it)",
               active.resources.value("pid", -1), active.plan.origin, active.cachedDevice);
    (void)m_env.run({"nbd-client", "-d", active.cachedDevice});
}

Expected<void> EngineBackend::detachAfterCrash(const ActiveCache& active) const {
    // Nothing is left to flush: the daemon's RAM went with it, and every write the filesystem
    // flushed (or wrote with FUA) was on the device before the daemon replied.
    const std::filesystem::path sys = nbdPidPath(active.cachedDevice);
    if (m_env.exists(sys)) {
        disconnectDead(active);
        for (int poll = 0; poll < 100 && m_env.exists(sys); ++poll) {
            m_env.sleep(100ms);
        }
        if (m_env.exists(sys)) {
            return fail(ErrorCode::Busy,
                        active.cachedDevice + " stays attached after nbd-client -d");
        }
    }
    for (const char* key : {"socket", "control"}) {
        if (const std::string path = active.resources.value(key, ""); !path.empty()) {
            std::error_code ignored;
            std::filesystem::remove(m_env.resolve(path), ignored);
        }
    }
    return {};
}

Expected<void> EngineBackend::releaseDeadDevice(const ActiveCache& active) {
    // The device itself goes only after the unmount (the mounted filesystem holds it open);
    // disable() waits for that.
    if (!daemonRunning(active) && m_env.exists(nbdPidPath(active.cachedDevice))) {
        disconnectDead(active);
    }
    return {};
}

Expected<void> EngineBackend::disable(const ActiveCache& active) {
    if (!daemonRunning(active)) {
        return detachAfterCrash(active);
    }
    if (auto flushed = flush(active); !flushed) {
        return std::unexpected(Error(flushed.error()).addContext("disabling the cache"));
    }
    if (auto detached = m_env.runChecked({"nbd-client", "-d", active.cachedDevice}); !detached) {
        return std::unexpected(Error(detached.error()).addContext("disabling the cache"));
    }
    return stopDaemon(active);
}

Expected<void> EngineBackend::setMode(ActiveCache& active, CacheMode mode) {
    auto reply = control(
        active, Json{{"cmd", "mode"}, {"write_mode", toString(mode)}, {"mode", toString(mode)}});
    if (!reply) {
        return std::unexpected(reply.error());
    }
    active.plan.mode = mode;
    return {};
}

Expected<void> EngineBackend::resize(ActiveCache& active, std::uint64_t cacheBytes) {
    CachePlan plan = active.plan;
    plan.cacheBytes = cacheBytes;
    if (auto checked = checkPlan(plan, capabilities()); !checked) {
        return std::unexpected(checked.error());
    }
    auto reply = control(active, Json{{"cmd", "resize"}, {"cache_size", cacheBytes}});
    if (!reply) {
        return std::unexpected(reply.error());
    }
    active.plan = plan;
    return {};
}

Expected<CacheStats> EngineBackend::stats(const ActiveCache& active) const {
    auto reply = control(active, Json{{"cmd", "stats"}});
    if (!reply) {
        return std::unexpected(reply.error());
    }
    return engineStatsFromJson(*reply, active.plan.name);
}

} // namespace ssdk::cachectl
