// Waker, which stops the NBD server's and the control server's accept loops and the helper's
// cancel watch: readable from a wake until a drain, wakes that do not queue, a poll on another
// thread woken.
#include <catch2/catch.hpp>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <thread>
#include <utility>

#include "core/cachectl/waker.h"

using ssdk::cachectl::Waker;

namespace {

// Whether the waker's descriptor polls readable within timeoutMs (0: right now).
bool wakerReadable(const Waker& waker, int timeoutMs = 0) {
    pollfd fd{.fd = waker.descriptor(), .events = POLLIN, .revents = 0};
    return ::poll(&fd, 1, timeoutMs) == 1 && (fd.revents & POLLIN) != 0;
}

} // namespace

TEST_CASE("a waker is readable from a wake until a drain, and wakes do not queue", "[waker]") {
    const Waker waker;
    REQUIRE(waker.valid());
    CHECK(waker.creationErrno() == 0);
    CHECK((::fcntl(waker.descriptor(), F_GETFD) & FD_CLOEXEC) != 0);
    CHECK_FALSE(wakerReadable(waker));
    CHECK_FALSE(waker.drain()); // nothing pending: returns at once

    waker.wake();
    CHECK(wakerReadable(waker));
    CHECK(wakerReadable(waker)); // polling does not consume the wake
    for (int i = 0; i < 4; ++i) {
        waker.wake();
    }
    CHECK(waker.drain()); // all five at once
    CHECK_FALSE(wakerReadable(waker));
    CHECK_FALSE(waker.drain());
}

TEST_CASE("a wake from another thread ends a blocked poll", "[waker]") {
    const Waker waker;
    REQUIRE(waker.valid());
    bool woken = false;
    std::thread poller([&] { woken = wakerReadable(waker, 10'000); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto start = std::chrono::steady_clock::now();
    waker.wake();
    poller.join();
    CHECK(woken);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("a moved waker keeps its descriptor and the moved-from one does nothing", "[waker]") {
    Waker first;
    REQUIRE(first.valid());
    const int descriptor = first.descriptor();
    Waker second = std::move(first);
    CHECK(second.descriptor() == descriptor);
    CHECK_FALSE(first.valid()); // NOLINT(bugprone-use-after-move): the moved-from state is defined
    CHECK(first.descriptor() == -1);
    first.wake();
    CHECK_FALSE(first.drain());
    second.wake();
    CHECK(wakerReadable(second));
}
