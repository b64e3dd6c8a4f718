#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace ssdk {

using Json = nlohmann::json;

// The deepest nesting of arrays and objects parseJson accepts. Every document the project
// reads is a few levels deep; a deeper one is refused before nlohmann builds it (its
// recursive copy, comparison and dump would overflow the stack on 100 000 levels).
inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses JSON text; a Parse error names where it broke instead of throwing. Text nested deeper
// than kMaxJsonDepth is a Parse error too. Never throws.
Expected<Json> parseJson(std::string_view text, std::string_view what);

// json.dump() for text that goes to another process: compact, and strings that are not valid
// UTF-8 (bytes quoted from untrusted input) get U+FFFD instead of a thrown type_error.
std::string dumpJsonLine(const Json& json);

// Error <-> {"code": "not-found", "message": "...", "context": ["...", ...]}
Json toJson(const Error& error);
Error errorFromJson(const Json& json);

} // namespace ssdk
