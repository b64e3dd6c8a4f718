#include "core/overprovision/mounts.h"

#include <algorithm>
#include <charconv>

namespace ssdk::overprovision {

namespace {

std::optional<std::uint32_t> hexNumber(std::string_view text) {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

} // namespace

std::optional<device::MountInfoEntry> findMount(std::string_view mountInfo, std::string_view source,
                                                std::string_view mountPoint) {
    for (auto& entry : device::parseMountInfo(mountInfo)) {
        if (entry.source == source && entry.mountPoint == mountPoint) {
            return std::move(entry);
        }
    }
    return std::nullopt;
}

bool mapsUseDevice(std::string_view maps, std::uint32_t major, std::uint32_t minor) {
    // address perms offset dev inode path; dev is "MAJOR:MINOR" in hex.
    while (!maps.empty()) {
        const auto newline = maps.find('\n');
        std::string_view line = maps.substr(0, newline);
        maps = newline == std::string_view::npos ? std::string_view() : maps.substr(newline + 1);
        std::size_t field = 0;
        while (field < 3 && !line.empty()) {
            const auto space = line.find(' ');
            if (space == std::string_view::npos) {
                line = {};
                break;
            }
            line.remove_prefix(space + 1);
            ++field;
        }
        const auto dev = line.substr(0, line.find(' '));
        const auto colon = dev.find(':');
        if (colon == std::string_view::npos) {
            continue;
        }
        const auto mapMajor = hexNumber(dev.substr(0, colon));
        const auto mapMinor = hexNumber(dev.substr(colon + 1));
        if (mapMajor && mapMinor && *mapMajor == major && *mapMinor == minor) {
            return true;
        }
    }
    return false;
}

} // namespace ssdk::overprovision
