// ssdkeeper-cached: serves cached devices over NBD. See docs/daemon.md.
//
//   ssdkeeper-cached --export NAME=PATH [--export ...] --socket PATH [--tcp HOST:PORT]
//                    [--control PATH] [--threads N] [--write-mode write-back|write-through]
//                    [--cache-size BYTES] [--compression lz4|none]
//                    [--mode write-through|write-back] [--dirty-high F] [--dirty-low F]
//                    [--cache-policy NAME] [--sequential-cutoff BYTES]
//
// SIGTERM, SIGINT and SIGHUP stop it cleanly: running requests finish, every export is
// flushed, the sockets are removed, and it exits 0 (1 if a flush failed).

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <sys/stat.h>

#include "core/base/bytes.h"
#include "core/base/log.h"
#include "core/cachectl/engine/policies.h"
#include "daemon/daemon.h"

int main(int argc, char** argv) {
    // Whatever mask the caller left (pkexec keeps it): files and sockets are private.
    ::umask(077);
    using namespace ssdk;
    CLI::App app{"ssdkeeper-cached: serves cached block devices over NBD"};
    std::vector<std::string> exportSpecs;
    std::string socket;
    std::string tcp;
    std::string control;
    std::string writeMode = "write-back";
    std::string logLevel = "info";
    unsigned threads = 8;
    std::string cacheSize = "0";
    std::string compression = "none";
    std::string cacheMode = "write-through";
    double dirtyHigh = 0.50;
    double dirtyLow = 0.25;
    std::string cachePolicy{cachectl::engine::kDefaultPolicy};
    std::string sequentialCutoff = "4M";
    app.add_option("--export", exportSpecs,
                   "NAME=PATH: serve the block device or file PATH as NBD export NAME")
        ->required();
    app.add_option("--socket", socket, "NBD Unix socket path")->required();
    app.add_option("--tcp", tcp, "also serve NBD on loopback HOST:PORT (port 0: any free port)");
    app.add_option("--control", control, "control socket path (JSON lines)");
    app.add_option("--threads", threads, "NBD requests of one connection executed at once")
        ->check(CLI::Range(1, 256));
    app.add_option("--write-mode", writeMode, "write-back or write-through")
        ->check(CLI::IsMember({"write-back", "write-through"}));
    app.add_option("--cache-size", cacheSize,
                   "RAM cache per export in bytes (suffixes K M G: binary); 0: no cache");
    app.add_option("--compression", compression, "LZ4-compress cached blocks: lz4 or none")
        ->check(CLI::IsMember({"lz4", "none"}));
    app.add_option("--mode", cacheMode, "the cache's write mode: write-through or write-back")
        ->check(CLI::IsMember({"write-through", "write-back"}));
    app.add_option("--dirty-high", dirtyHigh,
                   "write-back: share of the cache dirty before write-back starts (0-1]")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--dirty-low", dirtyLow,
                   "write-back: share write-back brings dirty data down to")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--cache-policy", cachePolicy,
                   "replacement policy: clockpro-steered (default) or clockpro (its cold "
                   "share adapting instead of steered)")
        ->check(CLI::IsMember(cachectl::engine::enginePolicyNames()));
    app.add_option("--sequential-cutoff", sequentialCutoff,
                   "misses of a sequential stream past this many bytes bypass the cache "
                   "(suffixes K M G: binary); 0: never bypass")
        ->capture_default_str();
    app.add_option("--log-level", logLevel, "trace, debug, info, warn, error")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));
    CLI11_PARSE(app, argc, argv);
    log::setup(logLevel);
    auto logger = log::get("daemon");

    daemon::DaemonConfig config;
    for (const auto& spec : exportSpecs) {
        auto parsed = daemon::parseExportSpec(spec);
        if (!parsed) {
            std::cerr << "ssdkeeper-cached: " << parsed.error().describe() << "\n";
            return 2;
        }
        config.exports.push_back(*parsed);
    }
    config.socket = socket;
    if (!tcp.empty()) {
        auto address = daemon::parseTcpAddress(tcp);
        if (!address) {
            std::cerr << "ssdkeeper-cached: " << address.error().describe() << "\n";
            return 2;
        }
        config.tcp = *address;
    }
    if (!control.empty()) {
        config.control = control;
    }
    config.threadsPerConnection = threads;
    config.writeMode = *cachectl::nbd::writeModeFromString(writeMode);
    auto cacheBytes = parseSize(cacheSize);
    if (!cacheBytes) {
        std::cerr << "ssdkeeper-cached: --cache-size: " << cacheBytes.error().describe() << "\n";
        return 2;
    }
    config.cache.cacheBytes = cacheBytes->value;
    config.cache.compression = compression == "lz4";
    config.cache.mode = *daemon::cacheModeFromString(cacheMode);
    config.cache.dirtyHigh = dirtyHigh;
    config.cache.dirtyLow = dirtyLow;
    config.cache.policy = cachePolicy;
    auto cutoff = parseSize(sequentialCutoff);
    if (!cutoff) {
        std::cerr << "ssdkeeper-cached: --sequential-cutoff: " << cutoff.error().describe() << "\n";
        return 2;
    }
    config.cache.sequentialCutoff = cutoff->value;

    // Every thread inherits this mask, so the signals are taken only by sigwait below.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    auto daemon = daemon::Daemon::create(std::move(config));
    if (!daemon) {
        std::cerr << "ssdkeeper-cached: " << daemon.error().describe() << "\n";
        return 1;
    }
    (*daemon)->start();
    logger->info("serving {} export(s) on {}", (*daemon)->config().exports.size(), socket);
    if ((*daemon)->tcpPort()) {
        logger->info("also serving on TCP port {}", *(*daemon)->tcpPort());
    }
    // A line on stdout tells a parent process that every socket accepts connections now.
    std::printf("ready\n");
    std::fflush(stdout);

    int received = 0;
    sigwait(&stopSignals, &received);
    logger->info("signal {} received: stopping and flushing", received);
    auto stopped = (*daemon)->shutdown();
    if (!stopped) {
        logger->error("{}", stopped.error().describe());
        return 1;
    }
    logger->info("stopped cleanly");
    return 0;
}
