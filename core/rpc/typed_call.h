#pragma once

#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/rpc/transport.h"

namespace ssdk::rpc {

// One call of a typed verb, as every area's client (CacheClient, SpareAreaClient, …) makes it:
// the request's JSON (its area's toJson, found by argument-dependent lookup) goes to `verb`,
// and the answer is read with `parse`; an answer that cannot be read is an error naming the
// verb.
template <typename Request, typename Parse>
auto roundTrip(Transport& transport, const char* verb, const Request& request, Parse parse,
               const Transport::EventHandler& onEvent = {})
    -> decltype(parse(std::declval<const Json&>())) {
    auto answer = transport.call(verb, toJson(request), onEvent);
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return withContext(parse(*answer), std::string("reading the answer to ") + verb);
}

} // namespace ssdk::rpc
