#pragma once
// Waker: wakes a thread blocked in poll() from another thread, to tell it to stop. Each OS
// implements it under platform/<os>/ (Linux: an eventfd, platform/linux/waker.cpp).

#include "core/base/unique_fd.h"

namespace ssdk::cachectl {

// Owns one descriptor, close-on-exec, that polls readable (POLLIN) from the first wake() until
// drain(). Wakes do not queue: any number of them before a drain() read as one. wake() and
// drain() may be called from any thread at the same time as a poll() on descriptor().
class Waker {
public:
    // Creates the descriptor. When that fails (the process is out of descriptors) valid() is
    // false, creationErrno() says why, and the Waker does nothing.
    Waker();
    Waker(Waker&&) noexcept = default;
    Waker& operator=(Waker&&) noexcept = default;

    bool valid() const { return m_fd.valid(); }
    int creationErrno() const { return m_creationErrno; }
    // The descriptor to poll for POLLIN; -1 when !valid(), which poll() skips.
    int descriptor() const { return m_fd.get(); }

    // Makes descriptor() readable. Never blocks; a no-op when !valid().
    void wake() const;
    // Makes descriptor() unreadable again, consuming the pending wakes. Never blocks. Returns
    // whether there was one.
    bool drain() const;

private:
    UniqueFd m_fd;
    int m_creationErrno = 0;
};

} // namespace ssdk::cachectl
