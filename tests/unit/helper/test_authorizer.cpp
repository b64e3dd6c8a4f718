#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "helper/authorizer.h"
#include "helper/helper_service.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

// pkcheck's command line for the caller as recorded at start.
std::vector<std::string> pkcheckArgv(const Caller& caller, const std::string& action,
                                     const std::vector<std::string>& detailArgs = {}) {
    std::vector<std::string> argv{"pkcheck", "--action-id", action, "--process",
                                  std::to_string(caller.pid) + "," + caller.startTime + "," +
                                      std::to_string(caller.uid)};
    argv.insert(argv.end(), detailArgs.begin(), detailArgs.end());
    argv.emplace_back("--allow-user-interaction");
    return argv;
}

// A caller as detectCaller makes it: this process, its start time read now.
Caller thisProcessAs(uid_t uid) {
    const auto startTime = processStartTime(::getpid());
    REQUIRE(startTime);
    return {.uid = uid, .pid = ::getpid(), .startTime = *startTime, .viaPkexec = true};
}

} // namespace

TEST_CASE("root callers are allowed without asking polkit", "[helper][authorizer]") {
    ReplayProcessRunner runner;
    PolkitAuthorizer authorizer({.uid = 0, .pid = ::getpid()}, runner);
    CHECK(authorizer.authorize("io.github.ssdkeeper.lab.create"));
    CHECK(runner.requests().empty());
}

TEST_CASE("pkcheck's exit code decides for other callers", "[helper][authorizer]") {
    const Caller caller = thisProcessAs(1000);
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
    PolkitAuthorizer authorizer(thisProcessAs(1000), runner);
    const auto result = authorizer.authorize("io.github.ssdkeeper.ping");
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::ToolMissing);
}

TEST_CASE("every check names the process recorded at start, not whatever has its pid now",
          "[helper][authorizer]") {
    // The start time recorded when the helper started differs from this pid's current one,
    // as it would after the caller exited and its pid was reused: polkit is still asked about
    // the recorded process (and says no, since it is gone), never about the newcomer.
    const Caller caller{.uid = 1000, .pid = ::getpid(), .startTime = "4242", .viaPkexec = true};
    const std::string action = "io.github.ssdkeeper.erase.run";
    ReplayProcessRunner runner;
    runner.expect(pkcheckArgv(caller, action), ProcessResult{.exitCode = 0});
    PolkitAuthorizer authorizer(caller, runner);
    CHECK(authorizer.authorize(action));
    CHECK(authorizer.authorize(action));
    const auto requests = runner.requests();
    REQUIRE(requests.size() == 2);
    for (const auto& request : requests) {
        CHECK(request.argv.at(4) == std::to_string(::getpid()) + ",4242,1000");
    }
}

TEST_CASE("a caller that could not be identified at start is refused without asking polkit",
          "[helper][authorizer]") {
    ReplayProcessRunner runner;
    PolkitAuthorizer authorizer({.uid = 1000, .pid = ::getpid(), .viaPkexec = true}, runner);
    const auto result = authorizer.authorize("io.github.ssdkeeper.ping");
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(result.error().message(), Catch::Contains("could not be identified"));
    CHECK(runner.requests().empty());
}

TEST_CASE("details reach pkcheck as --detail KEY VALUE, unsafe ones are dropped",
          "[helper][authorizer]") {
    const Caller caller = thisProcessAs(1000);
    const std::string action = "io.github.ssdkeeper.erase.run";
    const std::vector<std::string> shown{"--detail", "device", "/dev/sda",
                                         "--detail", "drive",  "CT1000MX500SSD1 (2049E5A1B2C3)"};
    ReplayProcessRunner runner;
    runner.expect(pkcheckArgv(caller, action, shown), ProcessResult{.exitCode = 0});
    PolkitAuthorizer authorizer(caller, runner);
    CHECK(authorizer.authorizeWithDetails(action, {{"device", "/dev/sda"},
                                                   {"drive", "CT1000MX500SSD1 (2049E5A1B2C3)"},
                                                   {"escape", "\x1b[31mred"},
                                                   {"newline", "a\nb"},
                                                   {"utf8", "caf\xc3\xa9"},
                                                   {"long", std::string(129, 'a')},
                                                   {"option", "--action-id"},
                                                   {"empty", ""},
                                                   {"polkit.message", "Install updates"},
                                                   {"Upper", "x"}}));
    REQUIRE(runner.requests().size() == 1);
    CHECK(runner.requests()[0].argv == pkcheckArgv(caller, action, shown));
}

TEST_CASE("a detail is printable ASCII of sane length", "[helper][authorizer]") {
    CHECK(isSafeDetail("/dev/nvme0n1"));
    CHECK(isSafeDetail("Samsung SSD 970 EVO Plus 500GB (S4EVNX0R612345A)"));
    CHECK(isSafeDetail(std::string(kMaxDetailLength, 'a')));
    CHECK_FALSE(isSafeDetail(std::string(kMaxDetailLength + 1, 'a')));
    CHECK_FALSE(isSafeDetail(""));
    CHECK_FALSE(isSafeDetail("-x"));
    CHECK_FALSE(isSafeDetail("a\tb"));
    CHECK_FALSE(isSafeDetail(std::string("a\0b", 3)));
    CHECK_FALSE(isSafeDetail("\x7f"));
    CHECK_FALSE(isSafeDetail("\xff"));
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
    // The parent's start time is recorded once, at start.
    CHECK(direct.startTime == processStartTime(::getppid()));
    CHECK_FALSE(direct.startTime.empty());
    ::setenv("PKEXEC_UID", "1234", 1);
    Caller viaPkexec = detectCaller();
    ::unsetenv("PKEXEC_UID");
    CHECK(viaPkexec.uid == 1234);
    CHECK(viaPkexec.pid == ::getppid());
    CHECK(viaPkexec.viaPkexec);
}

TEST_CASE("a request's device reaches pkcheck as --detail device", "[helper][authorizer]") {
    const Caller caller = thisProcessAs(1000);
    ReplayProcessRunner runner; // pkcheck answers ToolMissing: the request fails after asking
    PolkitAuthorizer authorizer(caller, runner);
    HelperService service(authorizer, [](const std::string&) {
        return std::string("CT1000MX500SSD1 (2049E5A1B2C3)");
    });
    service.add(
        Verb{"erase.run", "io.github.ssdkeeper.erase.run", Grade::Destroy,
             [](const Json&, const VerbEvents&) -> Expected<Json> { return Json::object(); }});
    (void)service.handleLine(R"({"id": 1, "verb": "erase.run", "args": {"device": "/dev/sdb"}})");
    REQUIRE(runner.requests().size() == 1);
    CHECK(runner.requests()[0].argv == pkcheckArgv(caller, "io.github.ssdkeeper.erase.run",
                                                   {"--detail", "device", "/dev/sdb", "--detail",
                                                    "drive", "CT1000MX500SSD1 (2049E5A1B2C3)"}));
}
