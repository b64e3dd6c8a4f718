#include "helper/cancel_watch.h"

#include <array>
#include <cerrno>
#include <poll.h>
#include <string>
#include <unistd.h>

#include "core/base/log.h"
#include "core/rpc/protocol.h"

namespace ssdk::helper {

CancelWatch::CancelWatch(int fd, std::function<void()> onCancel)
    : m_onCancel(std::move(onCancel)) {
    if (fd < 0) {
        return;
    }
    m_stop.emplace();
    if (!m_stop->valid()) {
        log::get("helper")->error("eventfd failed ({}); the run cannot be cancelled",
                                  m_stop->creationErrno());
        return;
    }
    m_thread = std::thread([this, fd] { watch(fd); });
}

CancelWatch::~CancelWatch() {
    if (m_thread.joinable()) {
        m_stop->wake();
        m_thread.join();
    }
}

void CancelWatch::watch(int fd) {
    std::string line;
    while (true) {
        std::array<pollfd, 2> fds{pollfd{fd, POLLIN, 0}, pollfd{m_stop->descriptor(), POLLIN, 0}};
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            log::get("helper")->error("watching for cancel failed ({})", errno);
            return;
        }
        if (fds[1].revents != 0) {
            return;
        }
        if (fds[0].revents == 0) {
            continue;
        }
        char byte = 0;
        const auto got = ::read(fd, &byte, 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            log::get("helper")->warn("the client closed its end; cancelling the running verb");
            m_onCancel();
            return;
        }
        if (byte != '\n') {
            if (line.size() < rpc::kMaxLineBytes) {
                line.push_back(byte);
            }
            continue;
        }
        if (rpc::decodeCancel(line)) {
            log::get("helper")->info("cancel requested by the client");
            m_onCancel();
            return;
        }
        log::get("helper")->warn("dropped a line that came while a verb ran: {}",
                                 line.substr(0, 200));
        line.clear();
    }
}

} // namespace ssdk::helper
