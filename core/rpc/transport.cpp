#include "core/rpc/transport.h"

namespace ssdk::rpc {

Expected<Json> Transport::call(const std::string& verb, const Json& args,
                               const EventHandler& onEvent, CallOwner owner) {
    {
        const std::lock_guard lock(m_ownerMutex);
        m_waiting.insert(owner);
    }
    const std::lock_guard call(m_callMutex);
    {
        const std::lock_guard lock(m_ownerMutex);
        m_waiting.erase(m_waiting.find(owner));
        if (const auto cancelled = m_cancelled.find(owner); cancelled != m_cancelled.end()) {
            m_cancelled.erase(cancelled);
            return fail(ErrorCode::Cancelled, verb + " was cancelled before it started");
        }
        m_running = true;
        m_runningOwner = owner;
    }
    auto result = send(verb, args, onEvent);
    {
        const std::lock_guard lock(m_ownerMutex);
        m_running = false;
        m_runningOwner = nullptr;
    }
    return result;
}

void Transport::cancel(CallOwner owner) {
    const std::lock_guard lock(m_ownerMutex);
    if (m_running && (owner == nullptr || owner == m_runningOwner)) {
        cancelRunning();
        return;
    }
    // One waiting call of this owner; nullptr cancels only a running call.
    if (owner != nullptr && m_cancelled.count(owner) < m_waiting.count(owner)) {
        m_cancelled.insert(owner);
    }
}

std::size_t Transport::waitingCalls(CallOwner owner) {
    const std::lock_guard lock(m_ownerMutex);
    return m_waiting.count(owner);
}

} // namespace ssdk::rpc
