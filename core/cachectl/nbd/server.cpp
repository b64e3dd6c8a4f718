#include "core/cachectl/nbd/server.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fmt/core.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include "core/base/log.h"
#include "core/cachectl/nbd/socket_io.h"

namespace ssdk::cachectl::nbd {

struct Server::Connection {
    explicit Connection(UniqueFd socket)
        : fd(std::move(socket))
        , reader(fd.get(), 256 * 1024) {}

    UniqueFd fd;
    std::shared_ptr<Export> exported;
    std::mutex readMutex; // guards reader and closing
    BufferedReader reader;
    bool closing = false;
    std::mutex writeMutex;
    std::atomic<bool> broken{false};
};

namespace {

bool isLoopback(const std::string& host) {
    in_addr v4{};
    if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) {
        return (ntohl(v4.s_addr) >> 24) == 127;
    }
    in6_addr v6{};
    return ::inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

void setReceiveTimeout(int fd, std::chrono::seconds timeout) {
    timeval value{.tv_sec = static_cast<time_t>(timeout.count()), .tv_usec = 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, sizeof(value));
}

} // namespace

Server::Server(std::vector<std::shared_ptr<Export>> exports, ServerOptions options)
    : m_exports(std::move(exports))
    , m_options(options) {}

Server::~Server() {
    stop();
}

Expected<void> Server::listenUnix(const std::filesystem::path& path) {
    auto fd = listenUnixSocket(path);
    if (!fd) {
        return std::unexpected(fd.error());
    }
    m_listeners.push_back(std::move(*fd));
    m_socketPaths.push_back(path);
    return {};
}

Expected<std::uint16_t> Server::listenTcp(const std::string& host, std::uint16_t port) {
    if (!isLoopback(host)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("TCP address {} is not a loopback address; NBD has no "
                                "authentication, so only 127.0.0.0/8 and ::1 are served",
                                host));
    }
    sockaddr_storage storage{};
    socklen_t length = 0;
    int family = AF_INET;
    if (host.find(':') != std::string::npos) {
        family = AF_INET6;
        auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        ::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr);
        length = sizeof(sockaddr_in6);
    } else {
        auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        ::inet_pton(AF_INET, host.c_str(), &v4->sin_addr);
        length = sizeof(sockaddr_in);
    }
    UniqueFd fd(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
        return failErrno(errno, "creating a TCP socket");
    }
    const int on = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&storage), length) != 0) {
        return failErrno(errno, fmt::format("binding {}:{}", host, port));
    }
    if (::listen(fd.get(), 64) != 0) {
        return failErrno(errno, fmt::format("listening on {}:{}", host, port));
    }
    sockaddr_storage bound{};
    socklen_t boundLength = sizeof(bound);
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &boundLength);
    const std::uint16_t boundPort = family == AF_INET6
                                        ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                        : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    m_listeners.push_back(std::move(fd));
    return boundPort;
}

void Server::start() {
    for (const auto& listener : m_listeners) {
        m_acceptThreads.emplace_back([this, fd = listener.get()] { acceptLoop(fd); });
    }
}

void Server::acceptLoop(int listenFd) {
    auto logger = log::get("nbd");
    while (!m_stopping.load()) {
        std::array<pollfd, 2> fds{
            pollfd{.fd = listenFd, .events = POLLIN, .revents = 0},
            pollfd{.fd = m_stopWaker.descriptor(), .events = POLLIN, .revents = 0}};
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            logger->error("polling the NBD listener: {}", std::strerror(errno));
            return;
        }
        if (fds[1].revents != 0 || m_stopping.load()) {
            return;
        }
        UniqueFd client(::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC));
        if (!client.valid()) {
            if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
                logger->warn("accepting an NBD connection: {}", std::strerror(errno));
            }
            continue;
        }
        if (auto peer = checkUnixPeer(client.get()); !peer) {
            logger->warn("refusing an NBD connection: {}", peer.error().describe());
            continue;
        }
        const int on = 1;
        ::setsockopt(client.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
        // Room for a whole large read reply (up to net.core.wmem_max): a 1 MiB reply then
        // goes out in one writev instead of waking up once per ~200 KiB the client drains.
        const int sendBuffer = 4 << 20;
        ::setsockopt(client.get(), SOL_SOCKET, SO_SNDBUF, &sendBuffer, sizeof(sendBuffer));
        reapFinishedThreads();
        auto done = std::make_shared<std::atomic<bool>>(false);
        std::lock_guard lock(m_connectionsMutex);
        m_connectionThreads.push_back(
            ConnectionThread{.thread = std::thread([this, done, fd = std::move(client)]() mutable {
                                 serveConnection(std::move(fd));
                                 done->store(true);
                             }),
                             .done = done});
    }
}

void Server::reapFinishedThreads() {
    std::vector<std::thread> finished;
    {
        std::lock_guard lock(m_connectionsMutex);
        auto it = std::partition(m_connectionThreads.begin(), m_connectionThreads.end(),
                                 [](const ConnectionThread& entry) { return !entry.done->load(); });
        for (auto finishedIt = it; finishedIt != m_connectionThreads.end(); ++finishedIt) {
            finished.push_back(std::move(finishedIt->thread));
        }
        m_connectionThreads.erase(it, m_connectionThreads.end());
    }
    for (auto& thread : finished) {
        thread.join();
    }
}

void Server::serveConnection(UniqueFd fd) {
    auto logger = log::get("nbd");
    Connection connection(std::move(fd));
    const int socketFd = connection.fd.get();
    {
        std::lock_guard lock(m_connectionsMutex);
        if (m_stopping.load()) {
            return;
        }
        m_connectionFds.insert(socketFd);
    }
    setReceiveTimeout(socketFd, m_options.handshakeTimeout);
    auto chosen =
        negotiate(socketFd, m_exports, HandshakeOptions{.maxPayload = m_options.maxPayload});
    if (!chosen) {
        logger->info("NBD handshake failed: {}", chosen.error().describe());
    } else if (*chosen) {
        setReceiveTimeout(socketFd, std::chrono::seconds(0));
        connection.exported = *chosen;
        auto& stats = connection.exported->stats();
        stats.connectionsTotal.fetch_add(1, std::memory_order_relaxed);
        stats.connectionsActive.fetch_add(1, std::memory_order_relaxed);
        logger->info("NBD client attached to export '{}'", connection.exported->name());
        std::vector<std::thread> helpers;
        for (unsigned i = 1; i < std::max(m_options.threadsPerConnection, 1U); ++i) {
            helpers.emplace_back([this, &connection] { transmit(connection); });
        }
        transmit(connection);
        for (auto& helper : helpers) {
            helper.join();
        }
        stats.connectionsActive.fetch_sub(1, std::memory_order_relaxed);
        logger->info("NBD client left export '{}'", connection.exported->name());
    }
    {
        std::lock_guard lock(m_connectionsMutex);
        m_connectionFds.erase(socketFd);
    }
    m_connectionEnded.notify_all();
}

void Server::transmit(Connection& connection) {
    auto logger = log::get("nbd");
    auto& stats = connection.exported->stats();
    // Page-aligned, as the engine's frames are (page_buffer.h): its 4 KiB copies run faster.
    PageBuffer payload;
    PageBuffer readBuffer;
    while (!connection.broken.load()) {
        Request request;
        WireError invalid = WireError::None;
        // The store this request runs on, fetched once (replaceStore may swap it meanwhile).
        std::shared_ptr<BlockStore> store;
        {
            std::lock_guard lock(connection.readMutex);
            if (connection.closing) {
                return;
            }
            // Any return below ends the connection for every thread of the group.
            connection.closing = true;
            std::array<std::byte, kRequestHeaderSize> headerBytes{};
            auto got = connection.reader.readFull(headerBytes);
            if (!got || *got == 0) {
                return;
            }
            if (*got != headerBytes.size()) {
                logger->info("NBD client closed inside a request header");
                return;
            }
            auto parsed = parseRequestHeader(headerBytes);
            if (!parsed) {
                // Framing is lost: nothing after this can be trusted to be a request.
                logger->warn("closing NBD connection: {}", parsed.error().message());
                return;
            }
            request = *parsed;
            store = connection.exported->store();
            const ExportLimits limits{
                .size = store->size(), .maxPayload = m_options.maxPayload, .readOnly = false};
            invalid = validateRequest(request, limits);
            const std::uint32_t payloadBytes = payloadLength(request);
            if (invalid != WireError::None) {
                if (payloadBytes > 0 && !connection.reader.discard(payloadBytes)) {
                    return;
                }
            } else if (static_cast<Command>(request.type) == Command::Disconnect) {
                return;
            } else if (payloadBytes > 0) {
                payload.resize(payloadBytes);
                if (!connection.reader.readExact(payload)) {
                    logger->info("NBD client closed inside a write payload");
                    return;
                }
            }
            connection.closing = false;
        }
        if (invalid != WireError::None) {
            logger->debug("NBD request type {} offset {} length {} refused with error {}",
                          request.type, request.offset, request.length,
                          static_cast<std::uint32_t>(invalid));
            stats.errorReplies.fetch_add(1, std::memory_order_relaxed);
            reply(connection, request.cookie, invalid, {});
            continue;
        }
        execute(connection, *store, request, payload.span().first(payloadLength(request)),
                readBuffer);
    }
}

void Server::execute(Connection& connection, BlockStore& store, const Request& request,
                     std::span<const std::byte> payload, PageBuffer& readBuffer) {
    auto& stats = connection.exported->stats();
    const bool fua = (request.flags & kCmdFlagFua) != 0 ||
                     connection.exported->writeMode() == WriteMode::WriteThrough;
    std::span<const std::byte> data;
    Expected<void> result;
    switch (static_cast<Command>(request.type)) {
    case Command::Read:
        readBuffer.resize(request.length);
        data = readBuffer.span();
        result = store.read(request.offset, readBuffer.span());
        stats.readOps.fetch_add(1, std::memory_order_relaxed);
        stats.readBytes.fetch_add(request.length, std::memory_order_relaxed);
        break;
    case Command::Write:
        result = store.write(request.offset, payload, fua);
        stats.writeOps.fetch_add(1, std::memory_order_relaxed);
        stats.writeBytes.fetch_add(request.length, std::memory_order_relaxed);
        break;
    case Command::Flush:
        result = store.flush();
        stats.flushOps.fetch_add(1, std::memory_order_relaxed);
        break;
    case Command::Trim:
        result = store.discard(request.offset, request.length);
        if (result && fua) {
            result = store.flush();
        }
        stats.trimOps.fetch_add(1, std::memory_order_relaxed);
        stats.trimBytes.fetch_add(request.length, std::memory_order_relaxed);
        break;
    case Command::WriteZeroes:
        result = store.writeZeroes(request.offset, request.length, fua);
        stats.zeroOps.fetch_add(1, std::memory_order_relaxed);
        stats.zeroBytes.fetch_add(request.length, std::memory_order_relaxed);
        break;
    default:
        result = fail(ErrorCode::Internal, "unvalidated NBD command reached execution");
        break;
    }
    if (!result) {
        log::get("nbd")->warn("NBD request type {} offset {} length {} failed: {}", request.type,
                              request.offset, request.length, result.error().describe());
        stats.errorReplies.fetch_add(1, std::memory_order_relaxed);
        // With simple replies a failed READ sends no data.
        reply(connection, request.cookie, wireErrorFor(result.error()), {});
        return;
    }
    reply(connection, request.cookie, WireError::None, data);
}

void Server::reply(Connection& connection, std::uint64_t cookie, WireError error,
                   std::span<const std::byte> data) {
    auto header = encodeSimpleReply(error, cookie);
    std::array<iovec, 2> iov{
        iovec{.iov_base = header.data(), .iov_len = header.size()},
        iovec{.iov_base = const_cast<std::byte*>(data.data()), .iov_len = data.size()}};
    std::lock_guard lock(connection.writeMutex);
    if (connection.broken.load()) {
        return;
    }
    if (auto written = writevAll(connection.fd.get(), std::span(iov).first(data.empty() ? 1 : 2));
        !written) {
        log::get("nbd")->info("NBD reply not delivered: {}", written.error().message());
        connection.broken.store(true);
        ::shutdown(connection.fd.get(), SHUT_RDWR);
    }
}

void Server::stop() {
    if (m_stopping.exchange(true)) {
        return;
    }
    m_stopWaker.wake();
    for (auto& thread : m_acceptThreads) {
        thread.join();
    }
    m_acceptThreads.clear();
    m_listeners.clear();
    for (const auto& path : m_socketPaths) {
        ::unlink(path.c_str());
    }
    {
        // Ending the read side makes each reader see end of stream; running requests still
        // reply. A client that stopped reading its replies would block them forever, so
        // after the grace period the write side is cut too.
        std::unique_lock lock(m_connectionsMutex);
        for (const int fd : m_connectionFds) {
            ::shutdown(fd, SHUT_RD);
        }
        if (!m_connectionEnded.wait_for(lock, m_options.stopGracePeriod,
                                        [this] { return m_connectionFds.empty(); })) {
            for (const int fd : m_connectionFds) {
                ::shutdown(fd, SHUT_RDWR);
            }
        }
    }
    std::vector<ConnectionThread> threads;
    {
        std::lock_guard lock(m_connectionsMutex);
        threads.swap(m_connectionThreads);
    }
    for (auto& entry : threads) {
        entry.thread.join();
    }
}

std::size_t Server::activeConnections() const {
    std::lock_guard lock(m_connectionsMutex);
    return m_connectionFds.size();
}

} // namespace ssdk::cachectl::nbd
