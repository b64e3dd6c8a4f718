#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace ssdk::cli {

struct ListenAddress {
    std::string host; // a loopback address: 127.0.0.1 (or another 127.x) or ::1
    std::uint16_t port = 0;
};

// "127.0.0.1:9633" or "[::1]:9633". Only loopback addresses are accepted: the endpoint has no
// authentication, so exposing it is left to a reverse proxy. Errors: InvalidArgument.
Expected<ListenAddress> parseListenAddress(std::string_view text);

// Serves GET /metrics (text exposition 0.0.4, produced afresh for every scrape by render)
// until the process is stopped; anything else gets 404. One connection at a time.
// onReady is called once the socket listens (tests use it). Errors: Io when it cannot bind.
Expected<void> serveMetrics(const ListenAddress& address,
                            const std::function<std::string()>& render,
                            const std::function<void()>& onReady = {});

} // namespace ssdk::cli
