#include "daemon/control_server.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "core/base/log.h"
#include "core/cachectl/nbd/socket_io.h"

namespace ssdk::daemon {

Expected<std::unique_ptr<ControlServer>> ControlServer::listen(const std::filesystem::path& path,
                                                               Handler handler) {
    // A private directory and mode 0600 from the start (listenUnixSocket): no chmod afterwards,
    // so there is no moment at which another user could connect.
    auto fd = cachectl::nbd::listenUnixSocket(path);
    if (!fd) {
        return std::unexpected(fd.error());
    }
    return std::unique_ptr<ControlServer>(
        new ControlServer(std::move(*fd), path, std::move(handler)));
}

ControlServer::ControlServer(UniqueFd listener, std::filesystem::path path, Handler handler)
    : m_listener(std::move(listener))
    , m_path(std::move(path))
    , m_handler(std::move(handler)) {}

ControlServer::~ControlServer() {
    stop();
}

void ControlServer::start() {
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

void ControlServer::stop() {
    if (m_stopping.exchange(true)) {
        return;
    }
    m_stopWaker.wake();
    if (m_acceptThread.joinable()) {
        m_acceptThread.join();
    }
    std::vector<ClientThread> threads;
    {
        std::lock_guard lock(m_mutex);
        for (const int fd : m_clients) {
            ::shutdown(fd, SHUT_RDWR);
        }
        threads.swap(m_clientThreads);
    }
    for (auto& entry : threads) {
        entry.thread.join();
    }
    m_listener.reset();
    ::unlink(m_path.c_str());
}

void ControlServer::acceptLoop() {
    while (!m_stopping.load()) {
        std::array<pollfd, 2> fds{
            pollfd{.fd = m_listener.get(), .events = POLLIN, .revents = 0},
            pollfd{.fd = m_stopWaker.descriptor(), .events = POLLIN, .revents = 0}};
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return;
        }
        if (fds[1].revents != 0) {
            return;
        }
        UniqueFd client(::accept4(m_listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
        if (!client.valid()) {
            continue;
        }
        if (auto peer = cachectl::nbd::checkUnixPeer(client.get()); !peer) {
            log::get("daemon")->warn("refusing a control connection: {}", peer.error().describe());
            continue;
        }
        reapFinishedThreads();
        const int fd = client.get();
        std::lock_guard lock(m_mutex);
        auto done = std::make_shared<std::atomic<bool>>(false);
        try {
            m_clientThreads.push_back(ClientThread{
                .thread = std::thread([this, fd, done, owned = std::move(client)]() mutable {
                    serve(fd);
                    {
                        std::lock_guard clientsLock(m_mutex);
                        m_clients.erase(fd);
                    }
                    owned.reset();
                    done->store(true);
                }),
                .done = done});
        } catch (const std::system_error& error) {
            // No thread to be had (resource limits): this client goes, the daemon stays.
            log::get("daemon")->warn("cannot serve a control connection: {}", error.what());
            continue;
        }
        m_clients.insert(fd);
    }
}

void ControlServer::reapFinishedThreads() {
    std::vector<std::thread> finished;
    {
        std::lock_guard lock(m_mutex);
        auto it = std::partition(m_clientThreads.begin(), m_clientThreads.end(),
                                 [](const ClientThread& entry) { return !entry.done->load(); });
        for (auto finishedIt = it; finishedIt != m_clientThreads.end(); ++finishedIt) {
            finished.push_back(std::move(finishedIt->thread));
        }
        m_clientThreads.erase(it, m_clientThreads.end());
    }
    for (auto& thread : finished) {
        thread.join();
    }
}

Json ControlServer::answerLine(std::string_view line, const Handler& handler) {
    // Nothing a client sends may end the daemon (a write-back cache would lose its dirty
    // blocks): a request the handler throws on is answered with an internal error.
    try {
        auto request = parseJson(line, "control request");
        if (!request) {
            return Json{{"ok", false}, {"error", toJson(request.error())}};
        }
        if (!request->is_object()) {
            return Json{{"ok", false},
                        {"error", toJson(Error(ErrorCode::InvalidArgument,
                                               "a control request is a JSON object"))}};
        }
        return handler(*request);
    } catch (const std::exception& error) {
        log::get("daemon")->error("control request failed: {}", error.what());
        return Json{{"ok", false},
                    {"error", toJson(Error(ErrorCode::Internal,
                                           std::string("the request failed: ") + error.what()))}};
    }
}

std::string ControlServer::answerText(std::string_view line, const Handler& handler) {
    try {
        // Parse errors quote the request's bytes, which need not be UTF-8: replaced, not thrown.
        return dumpJsonLine(answerLine(line, handler)) + "\n";
    } catch (const std::exception& error) {
        log::get("daemon")->error("answering a control request: {}", error.what());
        return R"({"ok":false,"error":{"code":"internal","message":"no answer","context":[]}})"
               "\n";
    }
}

void ControlServer::serve(int fd) {
    std::string buffer;
    std::array<char, 4096> chunk{};
    while (true) {
        const ssize_t n = ::read(fd, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        buffer.append(chunk.data(), static_cast<std::size_t>(n));
        std::size_t newline = 0;
        while ((newline = buffer.find('\n')) != std::string::npos) {
            const std::string line = buffer.substr(0, newline);
            buffer.erase(0, newline + 1);
            if (line.find_first_not_of(" \t\r") == std::string::npos) {
                continue;
            }
            const std::string answer = answerText(line, m_handler);
            if (!cachectl::nbd::writeAll(fd, std::as_bytes(std::span(answer)))) {
                return;
            }
        }
        if (buffer.size() > kMaxControlLine) {
            log::get("daemon")->warn("control client sent a line over {} bytes; closing",
                                     kMaxControlLine);
            return;
        }
    }
}

} // namespace ssdk::daemon
