#include "core/base/json.h"

#include <string>

namespace ssdk {

namespace {

// Whether the arrays and objects of text (brackets outside strings) nest deeper than limit.
// Malformed text is left to the parser; this only has to find every bracket it would follow.
bool nestsDeeperThan(std::string_view text, std::size_t limit) {
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i; // the escaped character, a quote included
            } else if (c == '"') {
                inString = false;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) {
                return true;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return false;
}

// nlohmann's messages quote the bytes where parsing stopped, which need not be UTF-8: such
// a message would make the error reply itself undumpable. Non-ASCII bytes become '?'.
std::string asciiOnly(std::string text) {
    for (char& c : text) {
        if (static_cast<unsigned char>(c) >= 0x80) {
            c = '?';
        }
    }
    return text;
}

// nlohmann's message for people: "[json.exception.parse_error.101] parse error at line 2,
// column 1: syntax error while parsing value - unexpected end of input" becomes "line 2,
// column 1: unexpected end of input".
std::string plainParseMessage(std::string text) {
    if (text.starts_with("[json.exception.")) {
        if (const auto end = text.find("] "); end != std::string::npos) {
            text.erase(0, end + 2);
        }
    }
    if (text.starts_with("parse error at ")) {
        text.erase(0, std::string_view("parse error at ").size());
    }
    if (const auto syntax = text.find("syntax error while parsing "); syntax != std::string::npos) {
        if (const auto dash = text.find(" - ", syntax); dash != std::string::npos) {
            text.erase(syntax, dash + 3 - syntax);
        }
    }
    return text;
}

} // namespace

Expected<Json> parseJson(std::string_view text, std::string_view what) {
    if (nestsDeeperThan(text, kMaxJsonDepth)) {
        return fail(ErrorCode::Parse, std::string(what) + " is not usable JSON: arrays and " +
                                          "objects nest deeper than " +
                                          std::to_string(kMaxJsonDepth) + " levels");
    }
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& error) {
        return fail(ErrorCode::Parse, std::string(what) + " is not valid JSON (" +
                                          plainParseMessage(asciiOnly(error.what())) + ")");
    } catch (const Json::exception& error) {
        // A number too large for a double ("1E400") is thrown as out_of_range (406).
        return fail(ErrorCode::Parse, std::string(what) + " is not usable JSON: " +
                                          plainParseMessage(asciiOnly(error.what())));
    } catch (const std::exception& error) {
        // std::bad_alloc and the like: the text is refused, the caller lives on.
        return fail(ErrorCode::Parse,
                    std::string(what) + " could not be parsed: " + asciiOnly(error.what()));
    }
}

std::string dumpJsonLine(const Json& json) {
    return json.dump(-1, ' ', false, Json::error_handler_t::replace);
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
