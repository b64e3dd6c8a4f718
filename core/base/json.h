#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/error.h"

namespace ssdk {

using Json = nlohmann::json;

// Parses JSON text; a Parse error names where it broke instead of throwing.
Expected<Json> parseJson(std::string_view text, std::string_view what);

// Error <-> {"code": "not-found", "message": "...", "context": ["...", ...]}
Json toJson(const Error& error);
Error errorFromJson(const Json& json);

} // namespace ssdk
