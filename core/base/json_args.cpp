#include "core/base/json_args.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdk {

namespace {

Error badArgument(std::string_view key, const std::string& why) {
    return Error(ErrorCode::InvalidArgument, fmt::format("argument '{}' {}", key, why));
}

} // namespace

Expected<void> requireOnlyKeys(const Json& args, std::initializer_list<std::string_view> keys) {
    if (!args.is_object()) {
        return fail(ErrorCode::InvalidArgument, "arguments must be a JSON object");
    }
    for (const auto& [key, value] : args.items()) {
        if (std::ranges::find(keys, key) == keys.end()) {
            return fail(ErrorCode::InvalidArgument, fmt::format("unknown argument '{}'", key));
        }
    }
    return {};
}

Expected<std::string> stringArg(const Json& args, std::string_view key, std::size_t maxLength) {
    const auto it = args.find(key);
    if (it == args.end()) {
        return std::unexpected(badArgument(key, "is missing"));
    }
    if (!it->is_string()) {
        return std::unexpected(badArgument(key, "must be a string"));
    }
    auto value = it->get<std::string>();
    if (value.size() > maxLength) {
        return std::unexpected(badArgument(key, fmt::format("is longer than {} bytes", maxLength)));
    }
    if (value.find('\0') != std::string::npos) {
        return std::unexpected(badArgument(key, "contains a NUL byte"));
    }
    return value;
}

Expected<std::string> stringArg(const Json& args, std::string_view key, std::size_t maxLength,
                                const std::string& fallback) {
    return args.contains(key) ? stringArg(args, key, maxLength) : Expected<std::string>(fallback);
}

Expected<std::uint64_t> unsignedArg(const Json& args, std::string_view key) {
    const auto it = args.find(key);
    if (it == args.end()) {
        return std::unexpected(badArgument(key, "is missing"));
    }
    // Parsed JSON holds non-negative integers as unsigned; Json built in-process from an int
    // holds them as signed.
    if (!it->is_number_integer() || (!it->is_number_unsigned() && it->get<std::int64_t>() < 0)) {
        return std::unexpected(badArgument(key, "must be a non-negative integer"));
    }
    return it->get<std::uint64_t>();
}

Expected<std::uint64_t> unsignedArg(const Json& args, std::string_view key,
                                    std::uint64_t fallback) {
    return args.contains(key) ? unsignedArg(args, key) : Expected<std::uint64_t>(fallback);
}

Expected<bool> boolArg(const Json& args, std::string_view key, bool fallback) {
    const auto it = args.find(key);
    if (it == args.end()) {
        return fallback;
    }
    if (!it->is_boolean()) {
        return std::unexpected(badArgument(key, "must be true or false"));
    }
    return it->get<bool>();
}

} // namespace ssdk
