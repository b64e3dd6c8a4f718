#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::rpc {

// The helper protocol: one JSON object per line in each direction.
//   request:  {"id": 7, "verb": "lab.create", "args": {"name": "lab", "size": 8589934592}}
//   response: {"id": 7, "ok": true, "result": {...}}
//             {"id": 7, "ok": false, "error": {"code": "busy", "message": "...", "context": [...]}}
//   event:    {"id": 7, "event": "progress", "data": {"fraction": 0.5, "text": "..."}}
//   cancel:   {"id": 7, "cancel": true}   (client → helper while request 7 runs; a verb that
//             can stop early ends with a Cancelled error, others finish; no extra response)
// Events for a request come before its response. Lines longer than kMaxLineBytes, and lines
// whose arrays and objects nest deeper than kMaxNestingDepth, are refused before parsing.
inline constexpr std::size_t kMaxLineBytes = 1 << 20;
inline constexpr std::size_t kMaxNestingDepth = 64;
inline constexpr int kProtocolVersion = 1;

struct Request {
    std::uint64_t id = 0;
    std::string verb;
    Json args = Json::object();
};

struct Event {
    std::uint64_t id = 0;
    std::string name;
    Json data = Json::object();
};

struct Response {
    std::uint64_t id = 0;
    Expected<Json> result = Json::object();
};

// Encoding never throws: text that is not valid UTF-8 (a message built from bytes a client
// sent) is written with U+FFFD in place of the bad bytes.
std::string encode(const Request& request);
std::string encode(const Response& response);
std::string encode(const Event& event);

// True when the arrays and objects of a JSON text nest deeper than limit (brackets inside
// strings do not count). Linear, no allocation: a guard before parsing or copying the text,
// whose recursive walks (copy, dump, compare) would overflow the stack on a deep line.
bool nestsDeeperThan(std::string_view text, std::size_t limit);

// Text from a client made safe for a log line or an error message: at most maxBytes bytes
// kept, bytes outside printable ASCII written as \xNN, a cut marked with "…(N bytes)".
std::string printable(std::string_view text, std::size_t maxBytes = 200);
// A JSON value for a log line: compact, invalid UTF-8 replaced, cut at maxBytes as above.
// The value must come from decodeRequest (nesting bounded by kMaxNestingDepth).
std::string printableJson(const Json& value, std::size_t maxBytes = 200);

Expected<Request> decodeRequest(std::string_view line);

// The cancel message for request id, and the id of a line that is one (nothing otherwise).
std::string encodeCancel(std::uint64_t id);
std::optional<std::uint64_t> decodeCancel(std::string_view line);

// A line from the helper is either an event or a response.
struct Message {
    bool isEvent = false;
    Event event;
    Response response;
};
Expected<Message> decodeMessage(std::string_view line);

} // namespace ssdk::rpc
