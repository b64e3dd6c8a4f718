// trace.record checks its arguments and the device node before any tracing starts.
#include <catch2/catch.hpp>

#include "core/perf/verbs.h"
#include "helper/helper_service.h"
#include "helper/trace_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

Json call(HelperService& service, const Json& args) {
    auto response =
        parseJson(service.handleLine(
                      Json{{"id", 1}, {"verb", perf::kVerbTraceRecord}, {"args", args}}.dump()),
                  "response");
    REQUIRE(response);
    return *response;
}

std::string errorCode(const Json& response) {
    INFO(response.dump());
    REQUIRE(response["ok"] == false);
    return response["error"]["code"].get<std::string>();
}

} // namespace

TEST_CASE("trace.record takes a device and 1 to 3600 seconds, 60 by default", "[helper][trace]") {
    const auto plain = perf::traceRecordRequestFromJson(Json{{"device", "/dev/sda1"}});
    REQUIRE(plain);
    CHECK(plain->device == "/dev/sda1");
    CHECK(plain->seconds == 60);
    for (const unsigned seconds : {1U, 3U, 3600U}) {
        const auto request = perf::traceRecordRequestFromJson(
            Json{{"device", "/dev/nvme0n1"}, {"seconds", seconds}});
        REQUIRE(request);
        CHECK(request->seconds == seconds);
    }
}

TEST_CASE("trace.record refuses malformed arguments", "[helper][trace]") {
    const Json bad[] = {
        Json::object(),
        Json{{"seconds", 5}},
        Json{{"device", "/dev/sda"}, {"seconds", 0}},
        Json{{"device", "/dev/sda"}, {"seconds", 3601}},
        Json{{"device", "/dev/sda"}, {"seconds", -5}},
        Json{{"device", "/dev/sda"}, {"seconds", 2.5}},
        Json{{"device", "/dev/sda"}, {"seconds", "60"}},
        Json{{"device", "/dev/sda"}, {"extra", true}},
        Json{{"device", "sda"}},
        Json{{"device", "/tmp/disk.img"}},
        Json{{"device", 7}},
        Json{{"device", std::string(5000, 'a')}},
    };
    for (const auto& args : bad) {
        INFO(args.dump());
        const auto request = perf::traceRecordRequestFromJson(args);
        REQUIRE_FALSE(request);
        CHECK(request.error().code() == ErrorCode::InvalidArgument);
    }
}

TEST_CASE("trace.record is a change verb that validates the node before tracing",
          "[helper][trace]") {
    test::AllowAll authorizer;
    HelperService service(authorizer);
    addTraceVerbs(service, -1);
    const Verb* verb = service.find(perf::kVerbTraceRecord);
    REQUIRE(verb != nullptr);
    CHECK(verb->grade == Grade::Change);
    CHECK(verb->polkitAction == "io.github.ssdkeeper.trace.record");

    CHECK(errorCode(call(service, {{"device", "/dev/sda"}, {"seconds", 0}})) == "invalid-argument");
    // A character device, and a node that does not exist: nothing is traced.
    CHECK(errorCode(call(service, {{"device", "/dev/null"}, {"seconds", 1}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, {{"device", "/dev/ssdk-no-such-disk"}, {"seconds", 1}})) ==
          "not-found");
}
