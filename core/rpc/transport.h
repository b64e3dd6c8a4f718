#pragma once

#include <functional>
#include <string>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/rpc/protocol.h"

namespace ssdk::rpc {

// How a caller reaches the helper's verbs: the helper process (HelperClient, core/rpc/client.h)
// or, in tests, a HelperService in the same process (helper/in_process_transport.h). Both
// speak the protocol of core/rpc/protocol.h, so what a verb receives and answers has made the
// same JSON round trip. Calls are serialized; call() blocks (GUI code runs it on a worker
// thread) and cancel() may come from any thread.
class Transport {
public:
    using EventHandler = std::function<void(const Event&)>;

    virtual ~Transport() = default;
    Transport() = default;
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    // Sends a request and waits for its response; events on the way go to onEvent. Errors
    // from the verb come back with their code and context; a transport that could not reach
    // the helper says why (PermissionDenied, Protocol, NotFound, ToolMissing).
    Expected<Json> call(const std::string& verb, const Json& args,
                        const EventHandler& onEvent = {}) {
        return send(verb, args, onEvent);
    }

    // Asks the helper to stop the call running now; nothing when no call runs. The call still
    // returns its response: a Cancelled error from a verb that stops early, its result from
    // one that cannot.
    virtual void cancel() = 0;

protected:
    virtual Expected<Json> send(const std::string& verb, const Json& args,
                                const EventHandler& onEvent) = 0;
};

} // namespace ssdk::rpc
