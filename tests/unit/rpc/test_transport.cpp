#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <future>
#include <mutex>
#include <vector>

#include "core/rpc/transport.h"

using namespace ssdk;
using namespace ssdk::rpc;

namespace {

// Each call blocks in send() until released; records what was sent and cancelled.
class GatedTransport final : public Transport {
public:
    void release() {
        const std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    void waitUntilSending(std::size_t count) {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return sent.size() >= count; });
    }
    std::vector<std::string> sent;
    std::atomic<int> cancels{0};

protected:
    Expected<Json> send(const std::string& verb, const Json&, const EventHandler&) override {
        std::unique_lock lock(m_mutex);
        sent.push_back(verb);
        m_changed.notify_all();
        m_changed.wait(lock, [&] { return m_open; });
        return Json{{"verb", verb}};
    }
    void cancelRunning() override { ++cancels; }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
};

} // namespace

TEST_CASE("one owner's cancel stops its own call on a shared transport, never another's",
          "[rpc][transport]") {
    GatedTransport transport;
    const int pageA = 0, pageB = 0;
    auto first = std::async(std::launch::async,
                            [&] { return transport.call("perf.bench", {}, {}, &pageA); });
    transport.waitUntilSending(1);
    // Page B's call waits behind page A's benchmark.
    auto second =
        std::async(std::launch::async, [&] { return transport.call("trim.run", {}, {}, &pageB); });
    while (transport.waitingCalls(&pageB) == 0) {
        std::this_thread::yield();
    }
    CHECK(transport.waitingCalls(&pageA) == 0);
    // Page B cancels: A's running call is left alone, B's is never sent.
    transport.cancel(&pageB);
    CHECK(transport.cancels == 0);
    // Page A cancels: the running call is asked to stop.
    transport.cancel(&pageA);
    CHECK(transport.cancels == 1);
    transport.release();
    REQUIRE(first.get());
    const auto cancelled = second.get();
    REQUIRE_FALSE(cancelled);
    CHECK(cancelled.error().code() == ErrorCode::Cancelled);
    CHECK(transport.sent == std::vector<std::string>{"perf.bench"});
}

TEST_CASE("cancel without an owner stops the running call, and nothing when none runs",
          "[rpc][transport]") {
    GatedTransport transport;
    transport.cancel();
    CHECK(transport.cancels == 0);
    const int page = 0;
    transport.cancel(&page); // no call of this owner: nothing is remembered
    auto running =
        std::async(std::launch::async, [&] { return transport.call("erase.run", {}, {}, &page); });
    transport.waitUntilSending(1);
    transport.cancel();
    CHECK(transport.cancels == 1);
    transport.release();
    CHECK(running.get());
}

TEST_CASE("an OwnerTransport sends as its owner and cancels only its owner's call",
          "[rpc][transport]") {
    GatedTransport shared;
    const int pageA = 0, pageB = 0;
    OwnerTransport viewA(shared, &pageA);
    OwnerTransport viewB(shared, &pageB);
    auto running = std::async(std::launch::async, [&] { return viewA.call("cache.enable", {}); });
    shared.waitUntilSending(1);
    viewB.cancel(); // B has no call running: A's is left alone
    CHECK(shared.cancels == 0);
    viewA.cancel();
    CHECK(shared.cancels == 1);
    shared.release();
    CHECK(running.get());
}
