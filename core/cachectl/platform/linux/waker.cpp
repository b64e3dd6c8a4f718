#include "core/cachectl/waker.h"

#include <cerrno>
#include <cstdint>
#include <sys/eventfd.h>
#include <unistd.h>

namespace ssdk::cachectl {

// Non-blocking so that drain() returns at once when nothing is pending. A write fails (EAGAIN,
// ignored: the descriptor is readable anyway) only when the counter would pass 2^64 - 2, which
// wakes never approach.
Waker::Waker()
    : m_fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    if (!m_fd.valid()) {
        m_creationErrno = errno;
    }
}

void Waker::wake() const {
    if (!m_fd.valid()) {
        return;
    }
    const std::uint64_t one = 1;
    (void)!::write(m_fd.get(), &one, sizeof one);
}

bool Waker::drain() const {
    std::uint64_t count = 0;
    return m_fd.valid() &&
           ::read(m_fd.get(), &count, sizeof count) == static_cast<ssize_t>(sizeof count);
}

} // namespace ssdk::cachectl
