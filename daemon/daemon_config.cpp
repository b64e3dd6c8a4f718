#include "daemon/daemon_config.h"

#include <charconv>
#include <fmt/core.h>
#include <set>

namespace ssdk::daemon {

namespace {

bool validName(std::string_view name) {
    if (name.empty() || name.size() > 255) {
        return false;
    }
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        if (!ok) {
            return false;
        }
    }
    return true;
}

} // namespace

Expected<ExportConfig> parseExportSpec(std::string_view spec) {
    ExportConfig config;
    const auto equals = spec.find('=');
    if (equals == std::string_view::npos) {
        config.backing = std::filesystem::path(spec);
        config.name = config.backing.filename().string();
    } else {
        config.name = std::string(spec.substr(0, equals));
        config.backing = std::filesystem::path(spec.substr(equals + 1));
    }
    if (config.backing.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("export '{}' names no backing device or file", spec));
    }
    if (!validName(config.name)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("export name '{}' must be 1-255 characters of A-Z a-z 0-9 . _ -",
                                config.name));
    }
    return config;
}

Expected<TcpAddress> parseTcpAddress(std::string_view text) {
    TcpAddress address;
    std::string_view portText;
    if (text.starts_with('[')) {
        const auto close = text.find("]:");
        if (close == std::string_view::npos) {
            return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not [HOST]:PORT", text));
        }
        address.host = std::string(text.substr(1, close - 1));
        portText = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string_view::npos || colon == 0) {
            return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not HOST:PORT", text));
        }
        address.host = std::string(text.substr(0, colon));
        portText = text.substr(colon + 1);
    }
    unsigned port = 0;
    const auto [end, error] =
        std::from_chars(portText.data(), portText.data() + portText.size(), port);
    if (error != std::errc() || end != portText.data() + portText.size() || port > 65535) {
        return fail(ErrorCode::InvalidArgument, fmt::format("'{}' is not a TCP port", portText));
    }
    address.port = static_cast<std::uint16_t>(port);
    return address;
}

std::string_view toString(cachectl::engine::WriteMode mode) {
    return mode == cachectl::engine::WriteMode::WriteBack ? "write-back" : "write-through";
}

Expected<cachectl::engine::WriteMode> cacheModeFromString(std::string_view name) {
    if (name == "write-back") {
        return cachectl::engine::WriteMode::WriteBack;
    }
    if (name == "write-through") {
        return cachectl::engine::WriteMode::WriteThrough;
    }
    return fail(ErrorCode::InvalidArgument,
                fmt::format("cache mode '{}' is not write-through or write-back", name));
}

Expected<void> validate(const DaemonConfig& config) {
    if (config.exports.empty()) {
        return fail(ErrorCode::InvalidArgument, "no export given (--export NAME=PATH)");
    }
    std::set<std::string> names;
    for (const auto& exported : config.exports) {
        if (!names.insert(exported.name).second) {
            return fail(ErrorCode::InvalidArgument,
                        fmt::format("export name '{}' is given twice", exported.name));
        }
    }
    if (config.socket.empty()) {
        return fail(ErrorCode::InvalidArgument, "no NBD socket path given (--socket PATH)");
    }
    if (!(config.cache.dirtyLow >= 0.0 && config.cache.dirtyLow < config.cache.dirtyHigh &&
          config.cache.dirtyHigh <= 1.0)) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("dirty watermarks must satisfy 0 <= low ({}) < high ({}) <= 1",
                                config.cache.dirtyLow, config.cache.dirtyHigh));
    }
    if (config.threadsPerConnection == 0 || config.threadsPerConnection > 256) {
        return fail(ErrorCode::InvalidArgument, "--threads must be between 1 and 256");
    }
    return {};
}

} // namespace ssdk::daemon
