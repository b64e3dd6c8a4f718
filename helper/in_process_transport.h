#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "core/base/unique_fd.h"
#include "core/rpc/transport.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// A Transport to a HelperService in this process, for tests: each call goes the wire's way —
// the request encoded as a line and handed to HelperService::handleLine, each event and the
// response decoded from their lines exactly as HelperClient decodes the helper's output — so
// every request and result makes the JSON round trip the helper process would make them.
// Calls are serialized. cancel() writes the cancel message to cancelFd(), which verbs that
// stop early watch (pass it where the helper passes its stdin, e.g. addPerfVerbs); a cancel
// that arrives after its call finished is dropped, as the helper drops it.
class InProcessTransport final : public rpc::Transport {
public:
    // The service must outlive the transport; keepAlive (what owns the service and what its
    // verbs use) is held as long as the transport is, for callers that share the transport
    // with calls still running on other threads (HelperCaller's pool).
    explicit InProcessTransport(HelperService& service, std::shared_ptr<const void> keepAlive = {});
    ~InProcessTransport() override;

    // The read end of the cancel channel; -1 when it could not be made.
    int cancelFd() const { return m_cancelRead.get(); }

protected:
    Expected<Json> send(const std::string& verb, const Json& args,
                        const EventHandler& onEvent) override;
    void cancelRunning() override;

private:
    void drainCancels();

    std::shared_ptr<const void> m_keepAlive;
    HelperService& m_service;
    std::mutex m_mutex;            // one call at a time
    std::mutex m_cancelMutex;      // guards m_runningId and the write end
    std::uint64_t m_runningId = 0; // the call waiting for its response
    std::uint64_t m_nextId = 1;
    UniqueFd m_cancelRead;
    UniqueFd m_cancelWrite;
};

} // namespace ssdk::helper
