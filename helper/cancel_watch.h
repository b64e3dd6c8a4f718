#pragma once

#include <functional>
#include <optional>
#include <thread>

#include "core/cachectl/waker.h"

namespace ssdk::helper {

// Watches the helper's request input while one long verb runs, for the client's cancel
// message (rpc::encodeCancel) or the end of input (the client went away, e.g. killed): either
// calls onCancel once, on the watcher's thread. The client sends nothing else while it waits
// for a response, so the watcher reads byte by byte up to each newline and never takes a
// later request from the main loop's reader. A fd < 0 watches nothing.
class CancelWatch {
public:
    CancelWatch(int fd, std::function<void()> onCancel);
    ~CancelWatch(); // stops watching and joins the thread
    CancelWatch(const CancelWatch&) = delete;
    CancelWatch& operator=(const CancelWatch&) = delete;

private:
    void watch(int fd);

    std::function<void()> m_onCancel;
    std::optional<cachectl::Waker> m_stop; // wakes the thread's poll when the verb is done
    std::thread m_thread;
};

} // namespace ssdk::helper
