// smart.read and selftest.* verbs: argument checks before anything runs, and their polkit
// actions graded like the verbs (reads yes, self-tests auth_admin_keep).
#include <catch2/catch.hpp>

#include "core/base/replay_process_runner.h"
#include "core/base/system_process_runner.h"
#include "helper/smart_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

Expected<Json> call(HelperService& service, const std::string& verb, const Json& args) {
    const Verb* found = service.find(verb);
    REQUIRE(found != nullptr);
    return found->handler(args, [](const std::string&, const Json&) {});
}

std::string policyDefault(const std::string& action) {
    SystemProcessRunner runner;
    auto result =
        runner.run({.argv = {"xmllint", "--xpath",
                             "string(//action[@id='" + action + "']/defaults/allow_active)",
                             SSDK_POLKIT_POLICY}});
    REQUIRE(result);
    std::string text = result->standardOutput;
    while (!text.empty() && text.back() == '\n') {
        text.pop_back();
    }
    return text;
}

} // namespace

TEST_CASE("smart verbs refuse malformed arguments before running anything", "[helper][smart]") {
    test::AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addSmartVerbs(service, runner);

    CHECK(call(service, "smart.read", Json{{"device", "/dev/sda"}, {"extra", 1}}).error().code() ==
          ErrorCode::InvalidArgument);
    CHECK(
        call(service, "smart.read", Json{{"device", "/dev/sda"}, {"wake", "yes"}}).error().code() ==
        ErrorCode::InvalidArgument);
    CHECK(call(service, "smart.read", Json{{"device", "/etc/passwd"}}).error().code() ==
          ErrorCode::InvalidArgument);
    CHECK(call(service, "selftest.start", Json{{"device", "/dev/sda"}, {"test", "conveyance"}})
              .error()
              .code() == ErrorCode::InvalidArgument);
    CHECK(call(service, "selftest.start", Json{{"device", "/dev/sda"}, {"test", "abort"}})
              .error()
              .code() == ErrorCode::InvalidArgument);
    CHECK(call(service, "selftest.start", Json{{"device", "/dev/sda"}}).error().code() ==
          ErrorCode::InvalidArgument);
    CHECK(call(service, "selftest.abort", Json{{"device", "/dev/zero"}}).error().code() ==
          ErrorCode::InvalidArgument);
    CHECK(runner.requests().empty());
}

TEST_CASE("smart verbs have polkit actions graded like the verbs", "[helper][polkit][linux]") {
    // scripts/setup installs xmllint (libxml2-utils).
    REQUIRE_FALSE(findExecutable("xmllint").empty());
    test::AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addSmartVerbs(service, runner);
    REQUIRE(service.verbNames().size() == 3);
    for (const auto& name : service.verbNames()) {
        const Verb* verb = service.find(name);
        INFO(name);
        CHECK(verb->polkitAction == "io.github.ssdkeeper." + name);
        CHECK(policyDefault(verb->polkitAction) ==
              (verb->grade == Grade::Read ? "yes" : "auth_admin_keep"));
    }
    CHECK(service.find("smart.read")->grade == Grade::Read);
    CHECK(service.find("selftest.start")->grade == Grade::Change);
    CHECK(service.find("selftest.abort")->grade == Grade::Change);
}
