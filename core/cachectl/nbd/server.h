#pragma once
// Server: serves Exports over NBD on Unix sockets and loopback TCP.
//
// Each connection is served by a group of threads (ServerOptions::threadsPerConnection). A
// thread takes the read lock, takes the next request (and a WRITE's payload) from the
// connection's read buffer, releases the lock, executes the request on the store and writes
// the reply under the write lock with one sendmsg. So a client keeps that many requests
// running at once, requests move between threads without a hand-off, and one read() often
// fetches many pipelined requests. Replies may come back in any order, as the protocol
// allows. Malformed requests get an NBD error reply; a broken framing (bad magic) closes only
// that connection.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "core/base/page_buffer.h"
#include "core/base/unique_fd.h"
#include "core/cachectl/nbd/export.h"
#include "core/cachectl/nbd/handshake.h"
#include "core/cachectl/nbd/protocol.h"
#include "core/cachectl/waker.h"

namespace ssdk::cachectl::nbd {

struct ServerOptions {
    std::uint32_t maxPayload = 32U << 20; // largest READ/WRITE; larger requests get EINVAL
    unsigned threadsPerConnection = 8;    // requests of one connection running at once
    std::chrono::seconds handshakeTimeout{30};
    // How long stop() lets running requests deliver their replies before cutting connections.
    std::chrono::seconds stopGracePeriod{10};
};

class Server {
public:
    Server(std::vector<std::shared_ptr<Export>> exports, ServerOptions options = {});
    // Stops (see stop()).
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds a Unix stream socket at path. A stale socket file (nobody accepting) is replaced;
    // a live one is Busy. The file is removed again by stop().
    Expected<void> listenUnix(const std::filesystem::path& path);
    // Binds host:port where host must be a loopback address (127.0.0.0/8 or ::1); port 0
    // picks a free port. Returns the bound port.
    Expected<std::uint16_t> listenTcp(const std::string& host, std::uint16_t port);
    // Starts one accepting thread per listening socket.
    void start();
    // Serves one connected socket on the calling thread until the client disconnects or
    // breaks the protocol (also used by tests and the fuzz target over a socketpair).
    void serveConnection(UniqueFd fd);
    // Stops accepting, ends every connection once its running requests have replied, and
    // waits for them. Exports are not flushed here: the owner flushes them afterwards.
    void stop();

    std::span<const std::shared_ptr<Export>> exports() const { return m_exports; }
    const ServerOptions& options() const { return m_options; }
    std::size_t activeConnections() const;

private:
    struct Connection;
    struct ConnectionThread {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };

    void acceptLoop(int listenFd);
    void transmit(Connection& connection);
    void execute(Connection& connection, BlockStore& store, const Request& request,
                 std::span<const std::byte> payload, PageBuffer& readBuffer);
    void reply(Connection& connection, std::uint64_t cookie, WireError error,
               std::span<const std::byte> data);
    void reapFinishedThreads();

    std::vector<std::shared_ptr<Export>> m_exports;
    ServerOptions m_options;

    std::vector<UniqueFd> m_listeners;
    std::vector<std::filesystem::path> m_socketPaths;
    std::vector<std::thread> m_acceptThreads;
    Waker m_stopWaker; // wakes the accept loops
    std::atomic<bool> m_stopping{false};

    mutable std::mutex m_connectionsMutex;
    std::condition_variable m_connectionEnded;
    std::set<int> m_connectionFds;
    std::vector<ConnectionThread> m_connectionThreads;
};

} // namespace ssdk::cachectl::nbd
