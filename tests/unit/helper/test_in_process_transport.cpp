// The in-process transport: a HelperService called through the wire's encoding (requests,
// events, responses and errors round-trip as JSON lines), and cancel through the channel a
// verb watches like the helper's stdin.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "helper/cancel_watch.h"
#include "helper/in_process_transport.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

// "test.echo" answers its args after a progress event; "test.wait" runs until cancelled.
void addTestVerbs(HelperService& service, const InProcessTransport& transport) {
    service.add(Verb{"test.echo", "io.github.ssdkeeper.test.echo", Grade::Read,
                     [](const Json& args, const VerbEvents& events) -> Expected<Json> {
                         events("progress", Json{{"fraction", 0.5}, {"text", "half"}});
                         return Json{{"args", args}};
                     }});
    const int cancelFd = transport.cancelFd();
    service.add(Verb{"test.wait", "io.github.ssdkeeper.test.wait", Grade::Read,
                     [cancelFd](const Json&, const VerbEvents& events) -> Expected<Json> {
                         std::atomic<bool> cancelled{false};
                         CancelWatch watch(cancelFd, [&] { cancelled = true; });
                         events("started", Json::object());
                         const auto deadline =
                             std::chrono::steady_clock::now() + std::chrono::seconds(10);
                         while (!cancelled && std::chrono::steady_clock::now() < deadline) {
                             std::this_thread::sleep_for(std::chrono::milliseconds(5));
                         }
                         if (cancelled) {
                             return fail(ErrorCode::Cancelled, "stopped as asked");
                         }
                         return Json{{"finished", true}};
                     }});
}

} // namespace

TEST_CASE("the in-process transport calls a HelperService through the protocol's lines",
          "[helper][rpc]") {
    test::AllowAll authorizer;
    HelperService service(authorizer, {});
    InProcessTransport transport(service);
    addTestVerbs(service, transport);

    std::vector<rpc::Event> events;
    const Json args{{"device", "/dev/x"}, {"size", 5}, {"text", "bytes \xff here"}};
    auto answer = transport.call("test.echo", args,
                                 [&](const rpc::Event& event) { events.push_back(event); });
    REQUIRE(answer);
    CHECK((*answer)["args"]["device"] == "/dev/x");
    CHECK((*answer)["args"]["size"] == 5);
    CHECK((*answer)["args"]["size"].is_number_unsigned()); // as parsed from the line
    // Invalid UTF-8 is replaced on the way, as the helper's encoder does.
    CHECK((*answer)["args"]["text"] == "bytes \xef\xbf\xbd here");
    REQUIRE(events.size() == 1);
    CHECK(events[0].name == "progress");
    CHECK(events[0].data["text"] == "half");

    // Errors come back decoded with their code and context.
    auto unknown = transport.call("test.nothing", Json::object());
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().code() == ErrorCode::InvalidArgument);
    CHECK_THAT(unknown.error().describe(), Catch::Contains("unknown verb 'test.nothing'"));
    auto badName = transport.call("Not A Verb", Json::object());
    REQUIRE_FALSE(badName);
    CHECK(badName.error().code() == ErrorCode::Protocol);

    // A cancel with no call running does nothing, and the next call runs to its end.
    transport.cancel();
    CHECK(transport.call("test.echo", Json::object()));
}

TEST_CASE("the in-process transport cancels the running call through its cancel channel",
          "[helper][rpc][linux]") {
    test::AllowAll authorizer;
    HelperService service(authorizer, {});
    InProcessTransport transport(service);
    REQUIRE(transport.cancelFd() >= 0);
    addTestVerbs(service, transport);

    std::atomic<bool> started{false};
    Expected<Json> result = Json::object();
    std::thread caller([&] {
        result = transport.call("test.wait", Json::object(), [&](const rpc::Event& event) {
            if (event.name == "started") {
                started = true;
            }
        });
    });
    while (!started) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    transport.cancel();
    caller.join();
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Cancelled);
    // The channel is empty again: the next call is not cancelled by the last one's message.
    CHECK(transport.call("test.echo", Json::object()));
}
