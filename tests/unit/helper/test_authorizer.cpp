#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "helper/authorizer.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

std::vector<std::string> pkcheckArgv(const Caller& caller, const std::string& action) {
    const auto startTime = processStartTime(caller.pid);
    REQUIRE(startTime);
    return {"pkcheck",
            "--action-id",
            action,
            "--process",
            std::to_string(caller.pid) + "," + *startTime + "," + std::to_string(caller.uid),
            "--allow-user-interaction"};
}

} // namespace

TEST_CASE("root callers are allowed without asking polkit", "[helper][authorizer]") {
    ReplayProcessRunner runner;
    PolkitAuthorizer authorizer({.uid = 0, .pid = ::getpid()}, runner);
    CHECK(authorizer.authorize("io.github.ssdkeeper.lab.create"));
    CHECK(runner.requests().empty());
}

TEST_CASE("pkcheck's exit code decides for other callers", "[helper][authorizer]") {
    const Caller caller{.uid = 1000, .pid = ::getpid(), .viaPkexec = true};
    const std::string action = "io.github.ssdkeeper.lab.create";
    struct Case {
        int exitCode;
        bool allowed;
        std::string mentions;
    };
    const std::vector<Case> cases{{0, true, ""},
                                  {1, false, "not authorized"},
                                  {2, false, "authentication agent"},
                                  {3, false, "dismissed"},
                                  {4, false, "could not decide"}};
    for (const auto& [exitCode, allowed, mentions] : cases) {
        INFO("pkcheck exit " << exitCode);
        ReplayProcessRunner runner;
        runner.expect(pkcheckArgv(caller, action),
                      ProcessResult{.exitCode = exitCode, .standardError = "pkcheck says no"});
        PolkitAuthorizer authorizer(caller, runner);
        const auto result = authorizer.authorize(action);
        CHECK(result.has_value() == allowed);
        if (!allowed) {
            CHECK(result.error().code() == ErrorCode::PermissionDenied);
            CHECK_THAT(result.error().message(), Catch::Contains(mentions));
        }
        CHECK(runner.requests().size() == 1);
    }
}

TEST_CASE("a missing pkcheck is an error, not an authorization", "[helper][authorizer]") {
    ReplayProcessRunner runner; // answers every command with ToolMissing
    PolkitAuthorizer authorizer({.uid = 1000, .pid = ::getpid(), .viaPkexec = true}, runner);
    const auto result = authorizer.authorize("io.github.ssdkeeper.ping");
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::ToolMissing);
}

TEST_CASE("the start time is field 22 of /proc/PID/stat, whatever the command name",
          "[helper][authorizer]") {
    const std::string tail = " S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 424242 99 100";
    CHECK(parseStartTime("123 (bash)" + tail) == "424242");
    CHECK(parseStartTime("123 (a) b (c) d)" + tail) == "424242");
    CHECK_FALSE(parseStartTime("123 bash S 1"));
    CHECK_FALSE(parseStartTime("123 (bash) S 1 2"));
}

TEST_CASE("the caller is PKEXEC_UID under pkexec, else our own uid", "[helper][authorizer]") {
    ::unsetenv("PKEXEC_UID");
    Caller direct = detectCaller();
    CHECK(direct.uid == ::getuid());
    CHECK(direct.pid == ::getppid());
    CHECK_FALSE(direct.viaPkexec);
    ::setenv("PKEXEC_UID", "1234", 1);
    Caller viaPkexec = detectCaller();
    ::unsetenv("PKEXEC_UID");
    CHECK(viaPkexec.uid == 1234);
    CHECK(viaPkexec.pid == ::getppid());
    CHECK(viaPkexec.viaPkexec);
}
