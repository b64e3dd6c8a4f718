#include "helper/in_process_transport.h"

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <string_view>
#include <unistd.h>

#include "core/base/log.h"

namespace ssdk::helper {

namespace {

// A line as the helper's LineReader and HelperClient::readLine hand it on: without its '\n'.
std::string_view withoutNewline(std::string_view line) {
    if (line.ends_with('\n')) {
        line.remove_suffix(1);
    }
    return line;
}

} // namespace

InProcessTransport::InProcessTransport(HelperService& service,
                                       std::shared_ptr<const void> keepAlive)
    : m_keepAlive(std::move(keepAlive))
    , m_service(service) {
    std::array<int, 2> fds{-1, -1};
    if (::pipe2(fds.data(), O_CLOEXEC) == 0) {
        m_cancelRead.reset(fds[0]);
        m_cancelWrite.reset(fds[1]);
    } else {
        log::get("rpc")->error("pipe2 failed ({}); calls cannot be cancelled", errno);
    }
}

InProcessTransport::~InProcessTransport() = default;

void InProcessTransport::cancelRunning() {
    const std::lock_guard lock(m_cancelMutex);
    if (m_runningId == 0 || !m_cancelWrite.valid()) {
        return;
    }
    const std::string line = rpc::encodeCancel(m_runningId);
    // One short write into an empty pipe: whole, or not at all.
    if (::write(m_cancelWrite.get(), line.data(), line.size()) < 0) {
        log::get("rpc")->warn("could not send cancel ({})", errno);
    }
}

// What a verb did not read of the cancel channel (a cancel that came as it finished) must not
// cancel the next call: the helper reads such a line in its main loop and drops it.
void InProcessTransport::drainCancels() {
    if (!m_cancelRead.valid()) {
        return;
    }
    std::array<char, 512> chunk{};
    pollfd fd{m_cancelRead.get(), POLLIN, 0};
    while (::poll(&fd, 1, 0) > 0 && (fd.revents & POLLIN) != 0) {
        if (::read(m_cancelRead.get(), chunk.data(), chunk.size()) <= 0) {
            return;
        }
    }
}

Expected<Json> InProcessTransport::send(const std::string& verb, const Json& args,
                                        const EventHandler& onEvent) {
    const std::lock_guard lock(m_mutex);
    const rpc::Request request{m_nextId++, verb, args};
    {
        const std::lock_guard cancelLock(m_cancelMutex);
        m_runningId = request.id;
    }
    std::optional<Error> eventError;
    const EventSink events = [&](const rpc::Event& event) {
        auto message = rpc::decodeMessage(withoutNewline(rpc::encode(event)));
        if (!message || !message->isEvent) {
            if (!eventError) {
                eventError = message ? Error(ErrorCode::Protocol, "an event decoded as a response")
                                     : message.error();
            }
            return;
        }
        if (message->event.id == request.id && onEvent) {
            onEvent(message->event);
        }
    };
    const std::string responseLine =
        m_service.handleLine(withoutNewline(rpc::encode(request)), events);
    {
        const std::lock_guard cancelLock(m_cancelMutex);
        m_runningId = 0;
    }
    drainCancels();
    if (eventError) {
        return std::unexpected(Error(*eventError).addContext("reading an event of " + verb));
    }
    auto message = rpc::decodeMessage(withoutNewline(responseLine));
    if (!message) {
        return std::unexpected(
            Error(message.error()).addContext("reading the helper service's answer"));
    }
    if (message->isEvent || message->response.id != request.id) {
        return fail(ErrorCode::Protocol,
                    "the helper service did not answer request " + std::to_string(request.id));
    }
    return std::move(message->response.result);
}

} // namespace ssdk::helper
