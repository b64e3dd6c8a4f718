// The polkit policy must offer an action for every helper verb, with the default its grade
// asks for, and be valid against polkit's DTD.
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/base/replay_process_runner.h"
#include "core/base/system_process_runner.h"
#include "helper/cache_verbs.h"
#include "helper/firmware_verbs.h"
#include "helper/lab_verbs.h"
#include "helper/maintenance_verbs.h"
#include "helper/op_verbs.h"
#include "helper/perf_verbs.h"
#include "helper/ping_verb.h"
#include "helper/smart_verbs.h"
#include "helper/trace_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

std::string xpath(const std::string& expression) {
    SystemProcessRunner runner;
    auto result = runner.run({.argv = {"xmllint", "--xpath", expression, SSDK_POLKIT_POLICY}});
    REQUIRE(result);
    std::string text = result->standardOutput;
    while (!text.empty() && text.back() == '\n') {
        text.pop_back();
    }
    return text;
}

std::string defaultFor(Grade grade) {
    switch (grade) {
    case Grade::Read:
        return "yes";
    case Grade::Change:
        return "auth_admin_keep";
    case Grade::Destroy:
        return "auth_admin";
    }
    return "";
}

} // namespace

TEST_CASE("every verb has a polkit action graded as its verb", "[helper][polkit][linux]") {
    REQUIRE(std::filesystem::exists(SSDK_POLKIT_POLICY));
    // scripts/setup installs xmllint (libxml2-utils).
    REQUIRE_FALSE(findExecutable("xmllint").empty());
    test::AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    service.add(pingVerb(Caller{}));
    addLabVerbs(service, LabContext{"/nonexistent", std::nullopt}, runner);
    addMaintenanceVerbs(service, runner, {});
    addOpVerbs(service, "/nonexistent", runner);
    addSmartVerbs(service, runner);
    addPerfVerbs(service, runner, -1);
    addTraceVerbs(service, -1);
    addFirmwareVerbs(service, {}, nullptr);
    cachectl::BackendRegistry cacheBackends;
    cachectl::CacheManager cacheManager(cacheBackends, cachectl::HostEnv{}, "/nonexistent");
    addCacheVerbs(service, cacheManager);
    // One action per verb, plus the action that starts the helper itself: no verb without
    // an action, no action left over.
    CHECK(xpath("count(//action)") == std::to_string(service.verbNames().size() + 1));
    for (const auto& name : service.verbNames()) {
        const Verb* verb = service.find(name);
        REQUIRE(verb != nullptr);
        INFO(name << " → " << verb->polkitAction);
        CHECK(verb->polkitAction == "io.github.ssdkeeper." + name);
        for (const char* who : {"allow_any", "allow_inactive", "allow_active"}) {
            CHECK(xpath("string(//action[@id='" + verb->polkitAction + "']/defaults/" + who +
                        ")") == defaultFor(verb->grade));
        }
    }
    CHECK(xpath("string(//action[@id='io.github.ssdkeeper.helper']/annotate[@key="
                "'org.freedesktop.policykit.exec.path'])") == SSDK_HELPER_INSTALL_PATH);
}

TEST_CASE("the policy is valid against polkit's DTD", "[helper][polkit][linux]") {
    // scripts/setup installs xmllint (libxml2-utils) and the DTD (polkitd).
    const char* dtd = "/usr/share/polkit-1/policyconfig-1.dtd";
    REQUIRE_FALSE(findExecutable("xmllint").empty());
    REQUIRE(std::filesystem::exists(dtd));
    SystemProcessRunner runner;
    auto result =
        runner.run({.argv = {"xmllint", "--noout", "--dtdvalid", dtd, SSDK_POLKIT_POLICY}});
    REQUIRE(result);
    INFO(result->standardError);
    CHECK(result->exitCode == 0);
}

TEST_CASE("dialogs of destructive verbs name the device from the request's details",
          "[helper][polkit][linux]") {
    // scripts/setup installs xmllint (libxml2-utils).
    REQUIRE_FALSE(findExecutable("xmllint").empty());
    for (const char* action :
         {"erase.run", "format.run", "perf.bench", "firmware.update", "op.apply", "cache.enable"}) {
        INFO(action);
        CHECK_THAT(xpath(std::string("string(//action[@id='io.github.ssdkeeper.") + action +
                         "']/message)"),
                   Catch::Contains("$(device)"));
    }
    // Only the details HelperService passes ("device", "drive") may appear in a message.
    CHECK(xpath("count(//message[contains(., '$(') and not(contains(., '$(device)')) and "
                "not(contains(., '$(drive)'))])") == "0");
}
