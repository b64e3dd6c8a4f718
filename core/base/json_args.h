#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk {

// Arguments of a request from an unprivileged process (the helper's verbs, parsed by each
// area's verbs.h): every one is checked for presence, type, range and form before use, and
// unknown keys are refused rather than ignored. Errors are InvalidArgument naming the
// argument ("argument 'size' must be a non-negative integer", "unknown argument 'x'").
Expected<void> requireOnlyKeys(const Json& args, std::initializer_list<std::string_view> keys);
Expected<std::string> stringArg(const Json& args, std::string_view key, std::size_t maxLength);
Expected<std::string> stringArg(const Json& args, std::string_view key, std::size_t maxLength,
                                const std::string& fallback);
Expected<std::uint64_t> unsignedArg(const Json& args, std::string_view key);
Expected<std::uint64_t> unsignedArg(const Json& args, std::string_view key, std::uint64_t fallback);
// true or false; the fallback when absent.
Expected<bool> boolArg(const Json& args, std::string_view key, bool fallback);

// The first error of several parsed values, or nothing: for a request parsed key by key.
template <typename... T> std::optional<Error> firstError(const Expected<T>&... values) {
    std::optional<Error> error;
    (
        [&] {
            if (!error && !values) {
                error = values.error();
            }
        }(),
        ...);
    return error;
}

// A result's JSON (an answer of the helper) read by `read`: not an object, or a value of the
// wrong type (nlohmann's thrown type error), is a Parse error that names the result (`what`).
template <typename Read>
auto readReply(const Json& json, const char* what, Read read) -> decltype(read()) {
    if (!json.is_object()) {
        return fail(ErrorCode::Parse, std::string(what) + " must be a JSON object");
    }
    try {
        return read();
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, std::string(what) + ": " + error.what());
    }
}

} // namespace ssdk
