#include "daemon/control_server.h"

#include <array>
#include <cerrno>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "core/base/log.h"
#include "core/cachectl/nbd/socket_io.h"

namespace ssdk::daemon {

Expected<std::unique_ptr<ControlServer>> ControlServer::listen(const std::filesystem::path& path,
                                                               Handler handler) {
    auto fd = cachectl::nbd::listenUnixSocket(path);
    if (!fd) {
        return std::unexpected(fd.error());
    }
    ::chmod(path.c_str(), 0600);
    return std::unique_ptr<ControlServer>(
        new ControlServer(std::move(*fd), path, std::move(handler)));
}

ControlServer::ControlServer(UniqueFd listener, std::filesystem::path path, Handler handler)
    : m_listener(std::move(listener))
    , m_path(std::move(path))
    , m_handler(std::move(handler))
    , m_stopEvent(::eventfd(0, EFD_CLOEXEC)) {}

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
    const std::uint64_t one = 1;
    (void)!::write(m_stopEvent.get(), &one, sizeof(one));
    if (m_acceptThread.joinable()) {
        m_acceptThread.join();
    }
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        for (const int fd : m_clients) {
            ::shutdown(fd, SHUT_RDWR);
        }
        threads.swap(m_clientThreads);
    }
    for (auto& thread : threads) {
        thread.join();
    }
    m_listener.reset();
    ::unlink(m_path.c_str());
}

void ControlServer::acceptLoop() {
    while (!m_stopping.load()) {
        std::array<pollfd, 2> fds{pollfd{.fd = m_listener.get(), .events = POLLIN, .revents = 0},
                                  pollfd{.fd = m_stopEvent.get(), .events = POLLIN, .revents = 0}};
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return;
        }
        if (fds[1].revents != 0) {
            return;
        }
        const int client = ::accept4(m_listener.get(), nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) {
            continue;
        }
        std::lock_guard lock(m_mutex);
        m_clients.insert(client);
        m_clientThreads.emplace_back([this, client] {
            serve(client);
            {
                std::lock_guard clientsLock(m_mutex);
                m_clients.erase(client);
            }
            ::close(client);
        });
    }
}

Json ControlServer::answerLine(std::string_view line, const Handler& handler) {
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
            const std::string answer = answerLine(line, m_handler).dump() + "\n";
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
