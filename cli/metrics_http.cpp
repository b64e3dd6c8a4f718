#include "cli/metrics_http.h"

#include <arpa/inet.h>
#include <cerrno>
#include <charconv>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/unique_fd.h"

namespace ssdk::cli {

namespace {

constexpr std::size_t kMaxRequestBytes = 8192;
constexpr int kReadTimeoutMs = 5000;

void writeAll(int fd, const std::string& data) {
    std::size_t written = 0;
    while (written < data.size()) {
        const ssize_t n = ::send(fd, data.data() + written, data.size() - written, MSG_NOSIGNAL);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue;
            }
            return;
        }
        written += static_cast<std::size_t>(n);
    }
}

// Reads the request head (up to the blank line) with a timeout; returns its first line.
std::string readRequestLine(int fd) {
    std::string request;
    char buffer[1024];
    while (request.find("\r\n\r\n") == std::string::npos && request.size() < kMaxRequestBytes) {
        pollfd pfd{fd, POLLIN, 0};
        if (::poll(&pfd, 1, kReadTimeoutMs) <= 0) {
            break;
        }
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) {
            break;
        }
        request.append(buffer, static_cast<std::size_t>(n));
    }
    return request.substr(0, request.find("\r\n"));
}

std::string response(std::string_view status, std::string_view contentType,
                     const std::string& body) {
    return fmt::format("HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n"
                       "Connection: close\r\n\r\n{}",
                       status, contentType, body.size(), body);
}

} // namespace

Expected<ListenAddress> parseListenAddress(std::string_view text) {
    ListenAddress address;
    std::string_view port;
    if (text.starts_with('[')) {
        const auto close = text.find("]:");
        if (close == std::string_view::npos) {
            return fail(ErrorCode::InvalidArgument, "listen address must be HOST:PORT");
        }
        address.host = std::string(text.substr(1, close - 1));
        port = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string_view::npos) {
            return fail(ErrorCode::InvalidArgument, "listen address must be HOST:PORT");
        }
        address.host = std::string(text.substr(0, colon));
        port = text.substr(colon + 1);
    }
    unsigned value = 0;
    const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (error != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
        return fail(ErrorCode::InvalidArgument, "port must be 1-65535");
    }
    address.port = static_cast<std::uint16_t>(value);
    in_addr v4{};
    in6_addr v6{};
    const bool loopback =
        (::inet_pton(AF_INET, address.host.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127) ||
        (::inet_pton(AF_INET6, address.host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6));
    if (!loopback) {
        return fail(ErrorCode::InvalidArgument,
                    "metrics are only served on a loopback address (127.0.0.1 or ::1), not '" +
                        address.host + "'");
    }
    return address;
}

Expected<void> serveMetrics(const ListenAddress& address,
                            const std::function<std::string()>& render,
                            const std::function<void()>& onReady) {
    const bool v6 = address.host.find(':') != std::string::npos;
    UniqueFd listener(::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!listener.valid()) {
        return failErrno(errno, "creating the metrics socket");
    }
    const int yes = 1;
    ::setsockopt(listener.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    int bound = -1;
    if (v6) {
        sockaddr_in6 socketAddress{};
        socketAddress.sin6_family = AF_INET6;
        socketAddress.sin6_port = htons(address.port);
        ::inet_pton(AF_INET6, address.host.c_str(), &socketAddress.sin6_addr);
        bound = ::bind(listener.get(), reinterpret_cast<sockaddr*>(&socketAddress),
                       sizeof socketAddress);
    } else {
        sockaddr_in socketAddress{};
        socketAddress.sin_family = AF_INET;
        socketAddress.sin_port = htons(address.port);
        ::inet_pton(AF_INET, address.host.c_str(), &socketAddress.sin_addr);
        bound = ::bind(listener.get(), reinterpret_cast<sockaddr*>(&socketAddress),
                       sizeof socketAddress);
    }
    if (bound < 0 || ::listen(listener.get(), 8) < 0) {
        return failErrno(errno, fmt::format("listening on {}:{}", address.host, address.port));
    }
    if (onReady) {
        onReady();
    }
    while (true) {
        UniqueFd connection(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
        if (!connection.valid()) {
            if (errno == EINTR || errno == ECONNABORTED) {
                continue;
            }
            return failErrno(errno, "accepting a metrics connection");
        }
        const std::string line = readRequestLine(connection.get());
        if (line.starts_with("GET /metrics ") || line == "GET /metrics") {
            writeAll(connection.get(),
                     response("200 OK", "text/plain; version=0.0.4; charset=utf-8", render()));
        } else {
            writeAll(connection.get(),
                     response("404 Not Found", "text/plain; charset=utf-8", "try /metrics\n"));
        }
    }
}

} // namespace ssdk::cli
