#pragma once

#include <functional>
#include <mutex>
#include <set>
#include <string>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/rpc/protocol.h"

namespace ssdk::rpc {

// How a caller reaches the helper's verbs: the helper process (HelperClient, core/rpc/client.h)
// or, in tests, a HelperService in the same process (helper/in_process_transport.h). Both
// speak the protocol of core/rpc/protocol.h, so what a verb receives and answers has made the
// same JSON round trip. Calls are serialized here, one at a time; call() blocks (GUI code
// runs it on a worker thread) and cancel() may come from any thread.
//
// One transport is one helper session, shared by every page of the GUI: a call names its
// owner (any address unique to the caller, e.g. the HelperCaller), so that one page's Cancel
// stops that page's call, never another page's call that happens to run now.
class Transport {
public:
    using EventHandler = std::function<void(const Event&)>;
    using CallOwner = const void*;

    virtual ~Transport() = default;
    Transport() = default;
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    // Sends a request and waits for its response; events on the way go to onEvent. Errors
    // from the verb come back with their code and context; a transport that could not reach
    // the helper says why (PermissionDenied, Protocol, NotFound, ToolMissing). A call whose
    // owner cancelled it while it waited for an earlier call is not sent: Cancelled.
    Expected<Json> call(const std::string& verb, const Json& args, const EventHandler& onEvent = {},
                        CallOwner owner = nullptr);

    // Stops owner's call: the running one through the helper (the call still returns its
    // response: a Cancelled error from a verb that stops early, its result from one that
    // cannot), a waiting one before it is sent. nullptr: the running call, whoever's. Nothing
    // when owner has no call.
    void cancel(CallOwner owner = nullptr);

    // How many of owner's calls wait for an earlier call to finish (to say "waiting for
    // another operation" rather than nothing).
    std::size_t waitingCalls(CallOwner owner);

protected:
    virtual Expected<Json> send(const std::string& verb, const Json& args,
                                const EventHandler& onEvent) = 0;
    // Asks the helper to stop the call being sent now.
    virtual void cancelRunning() = 0;

private:
    std::mutex m_callMutex;  // held for a whole call: one at a time
    std::mutex m_ownerMutex; // guards what follows
    bool m_running = false;  // a call is in send()
    CallOwner m_runningOwner = nullptr;
    std::multiset<CallOwner> m_waiting;   // owners of calls waiting for m_callMutex
    std::multiset<CallOwner> m_cancelled; // waiting calls cancelled before they were sent
};

// One owner's calls on a shared transport, for code that takes a plain Transport& (a
// CacheClient, say): every call goes to `shared` as owner's, and cancel() stops owner's call.
// `shared` must outlive it.
class OwnerTransport final : public Transport {
public:
    OwnerTransport(Transport& shared, CallOwner owner)
        : m_shared(shared)
        , m_owner(owner) {}

protected:
    Expected<Json> send(const std::string& verb, const Json& args,
                        const EventHandler& onEvent) override {
        return m_shared.call(verb, args, onEvent, m_owner);
    }
    void cancelRunning() override { m_shared.cancel(m_owner); }

private:
    Transport& m_shared;
    CallOwner m_owner;
};

} // namespace ssdk::rpc
