#include "core/rpc/protocol.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdk::rpc {

namespace {

// Compact JSON that never throws on strings that are not valid UTF-8.
std::string dumpSafely(const Json& json) {
    return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool isVerbName(const std::string& verb) {
    return !verb.empty() && verb.size() <= 64 && std::ranges::all_of(verb, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    });
}

Expected<Json> parseLine(std::string_view line) {
    if (line.size() > kMaxLineBytes) {
        return fail(ErrorCode::Protocol, "message of " + std::to_string(line.size()) +
                                             " bytes is longer than the limit of " +
                                             std::to_string(kMaxLineBytes));
    }
    if (nestsDeeperThan(line, kMaxNestingDepth)) {
        return fail(ErrorCode::Protocol, "message nests arrays and objects deeper than " +
                                             std::to_string(kMaxNestingDepth) + " levels");
    }
    auto json = parseJson(line, "the message");
    if (!json) {
        // The parser quotes the bytes where it stopped: a client's bytes, maybe not UTF-8.
        return fail(json.error().code(), printable(json.error().message(), 300));
    }
    if (!json->is_object()) {
        return fail(ErrorCode::Protocol, "a message must be a JSON object");
    }
    return json;
}

// A message line parsed, with its "id".
struct Envelope {
    Json json;
    std::uint64_t id = 0;
};

Expected<Envelope> parseEnvelope(std::string_view line) {
    auto json = parseLine(line);
    if (!json) {
        return std::unexpected(json.error());
    }
    const auto it = json->find("id");
    if (it == json->end() || !it->is_number_unsigned()) {
        return fail(ErrorCode::Protocol, "a message needs \"id\", an unsigned integer");
    }
    const auto id = it->get<std::uint64_t>();
    return Envelope{std::move(*json), id};
}

} // namespace

bool nestsDeeperThan(std::string_view text, std::size_t limit) {
    std::size_t depth = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '[':
        case '{':
            if (++depth > limit) {
                return true;
            }
            break;
        case ']':
        case '}':
            if (depth > 0) {
                --depth;
            }
            break;
        default:
            break;
        }
    }
    return false;
}

std::string printable(std::string_view text, std::size_t maxBytes) {
    std::string out;
    const std::size_t kept = std::min(text.size(), maxBytes);
    out.reserve(kept + 16);
    for (const char c : text.substr(0, kept)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            out += fmt::format("\\x{:02x}", byte);
        }
    }
    if (kept < text.size()) {
        out += fmt::format("…({} bytes)", text.size());
    }
    return out;
}

std::string printableJson(const Json& value, std::size_t maxBytes) {
    return printable(dumpSafely(value), maxBytes);
}

std::string encode(const Request& request) {
    return dumpSafely(Json{{"id", request.id}, {"verb", request.verb}, {"args", request.args}}) +
           '\n';
}

std::string encode(const Response& response) {
    Json json{{"id", response.id}, {"ok", response.result.has_value()}};
    if (response.result) {
        json["result"] = *response.result;
    } else {
        json["error"] = toJson(response.result.error());
    }
    return dumpSafely(json) + '\n';
}

std::string encode(const Event& event) {
    return dumpSafely(Json{{"id", event.id}, {"event", event.name}, {"data", event.data}}) + '\n';
}

std::string encodeCancel(std::uint64_t id) {
    return Json{{"id", id}, {"cancel", true}}.dump() + '\n';
}

std::optional<std::uint64_t> decodeCancel(std::string_view line) {
    auto envelope = parseEnvelope(line);
    if (!envelope) {
        return std::nullopt;
    }
    const auto cancel = envelope->json.find("cancel");
    if (cancel == envelope->json.end() || !cancel->is_boolean() || !cancel->get<bool>()) {
        return std::nullopt;
    }
    return envelope->id;
}

Expected<Request> decodeRequest(std::string_view line) {
    auto envelope = parseEnvelope(line);
    if (!envelope) {
        return std::unexpected(envelope.error());
    }
    const Json& json = envelope->json;
    const std::uint64_t id = envelope->id;
    Request request;
    request.id = id;
    const auto verb = json.find("verb");
    if (verb == json.end() || !verb->is_string() || !isVerbName(verb->get<std::string>())) {
        return fail(ErrorCode::Protocol, "a request needs \"verb\", a non-empty name of lower-case "
                                         "letters, digits, '.' and '-'");
    }
    request.verb = verb->get<std::string>();
    if (const auto args = json.find("args"); args != json.end()) {
        if (!args->is_object()) {
            return fail(ErrorCode::Protocol, "\"args\" must be a JSON object");
        }
        request.args = *args;
    }
    return request;
}

Expected<Message> decodeMessage(std::string_view line) {
    auto envelope = parseEnvelope(line);
    if (!envelope) {
        return std::unexpected(envelope.error());
    }
    const Json& json = envelope->json;
    const std::uint64_t id = envelope->id;
    Message message;
    if (const auto event = json.find("event"); event != json.end()) {
        if (!event->is_string()) {
            return fail(ErrorCode::Protocol, "\"event\" must be a string");
        }
        message.isEvent = true;
        message.event = Event{id, event->get<std::string>(), json.value("data", Json::object())};
        return message;
    }
    const auto ok = json.find("ok");
    if (ok == json.end() || !ok->is_boolean()) {
        return fail(ErrorCode::Protocol, "a response needs \"ok\", true or false");
    }
    message.response.id = id;
    if (ok->get<bool>()) {
        message.response.result = json.value("result", Json::object());
    } else {
        message.response.result = std::unexpected(errorFromJson(json.value("error", Json())));
    }
    return message;
}

} // namespace ssdk::rpc
