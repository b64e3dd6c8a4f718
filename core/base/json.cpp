#include "core/base/json.h"

#include <string>

namespace ssdk {

Expected<Json> parseJson(std::string_view text, std::string_view what) {
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& error) {
        return fail(ErrorCode::Parse, std::string(what) + " is not valid JSON: " + error.what());
    } catch (const Json::out_of_range& error) {
        // A number too large for a double ("1E400") is thrown as out_of_range (406).
        return fail(ErrorCode::Parse, std::string(what) + " is not usable JSON: " + error.what());
    }
}

Json toJson(const Error& error) {
    return Json{{"code", toString(error.code())},
                {"message", error.message()},
                {"context", error.context()}};
}

Error errorFromJson(const Json& json) {
    if (!json.is_object()) {
        return Error(ErrorCode::Protocol, "malformed error object");
    }
    Error error(errorCodeFromString(json.value("code", std::string("internal"))),
                json.value("message", std::string("(no message)")));
    if (auto it = json.find("context"); it != json.end() && it->is_array()) {
        for (const auto& item : *it) {
            if (item.is_string()) {
                error.addContext(item.get<std::string>());
            }
        }
    }
    return error;
}

} // namespace ssdk
