#include "core/base/mount_options.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ssdk {

namespace {

bool plainOption(std::string_view option) {
    return std::ranges::all_of(option, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '=' || c == '.' || c == ':' || c == '/' || c == '+' || c == '-';
    });
}

} // namespace

Expected<std::string> helperMountOptions(std::string_view options) {
    // What "nosuid,nodev" must not be undone by, whatever order mount applies them in.
    static constexpr std::array kDropped = {std::string_view("suid"), std::string_view("dev"),
                                            std::string_view("nosuid"), std::string_view("nodev"),
                                            std::string_view("defaults")};
    std::vector<std::string_view> kept;
    while (!options.empty()) {
        const auto comma = options.find(',');
        const auto option = options.substr(0, comma);
        options = comma == std::string_view::npos ? std::string_view() : options.substr(comma + 1);
        if (option.empty() || std::ranges::find(kDropped, option) != kDropped.end()) {
            continue;
        }
        if (!plainOption(option) || option.starts_with("x-") || option.starts_with("helper=") ||
            option.starts_with("uhelper=")) {
            return fail(ErrorCode::InvalidArgument,
                        "refusing the mount option \"" + std::string(option) + "\"");
        }
        kept.push_back(option);
    }
    std::string result;
    for (const auto option : kept) {
        result += std::string(option) + ",";
    }
    return result + "nosuid,nodev";
}

} // namespace ssdk
