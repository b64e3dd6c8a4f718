#include <catch2/catch.hpp>

#include "core/base/replay_process_runner.h"
#include "core/base/system_process_runner.h"

using namespace std::chrono_literals;
using ssdk::ErrorCode;
using ssdk::ProcessRequest;

TEST_CASE("SystemProcessRunner captures exit code, stdout and stderr", "[process][linux]") {
    ssdk::SystemProcessRunner runner;
    auto result = runner.run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
    REQUIRE(result);
    CHECK(result->exitCode == 3);
    CHECK(result->standardOutput == "out\n");
    CHECK(result->standardError == "err\n");
}

TEST_CASE("SystemProcessRunner passes arguments without a shell", "[process][linux]") {
    ssdk::SystemProcessRunner runner;
    auto result = runner.run({.argv = {"printf", "%s|", "a b", "$HOME", "; rm -rf /"}});
    REQUIRE(result);
    CHECK(result->standardOutput == "a b|$HOME|; rm -rf /|");
}

TEST_CASE("SystemProcessRunner feeds stdin and sets the environment", "[process][linux]") {
    ssdk::SystemProcessRunner runner;
    std::string big(1 << 20, 'x');
    auto result = runner.run({.argv = {"wc", "-c"}, .standardInput = big});
    REQUIRE(result);
    CHECK(std::stoul(result->standardOutput) == big.size());
    auto env = runner.run(
        {.argv = {"sh", "-c", "echo $SSDK_PROBE"}, .environment = {{"SSDK_PROBE", "seen"}}});
    REQUIRE(env);
    CHECK(env->standardOutput == "seen\n");
}

TEST_CASE("SystemProcessRunner stops a program at its timeout", "[process][linux]") {
    ssdk::SystemProcessRunner runner;
    const auto start = std::chrono::steady_clock::now();
    auto result = runner.run({.argv = {"sleep", "30"}, .timeout = 200ms});
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::Timeout);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
}

TEST_CASE("SystemProcessRunner reports a missing program as ToolMissing", "[process][linux]") {
    ssdk::SystemProcessRunner runner;
    auto result = runner.run({.argv = {"ssdk-no-such-tool-xyz"}});
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::ToolMissing);
    CHECK(result.error().message().find("ssdk-no-such-tool-xyz") != std::string::npos);
}

TEST_CASE("runChecked turns a failing exit into ProcessFailed with stderr", "[process][linux]") {
    ssdk::SystemProcessRunner runner;
    auto result = ssdk::runChecked(runner, {.argv = {"sh", "-c", "echo broken >&2; exit 1"}});
    REQUIRE_FALSE(result);
    CHECK(result.error().code() == ErrorCode::ProcessFailed);
    CHECK(result.error().message().ends_with("exited with 1: broken"));
}

TEST_CASE("ReplayProcessRunner answers recorded commands and records requests", "[process]") {
    ssdk::ReplayProcessRunner runner;
    runner.expect({"smartctl", "-j", "/dev/sda"}, ssdk::ProcessResult{0, "{}", ""});
    runner.expectOnce({"losetup", "-f"}, ssdk::ProcessResult{0, "/dev/loop0\n", ""});
    runner.expectOnce({"losetup", "-f"}, ssdk::ProcessResult{0, "/dev/loop1\n", ""});

    CHECK(runner.run({.argv = {"smartctl", "-j", "/dev/sda"}})->standardOutput == "{}");
    CHECK(runner.run({.argv = {"smartctl", "-j", "/dev/sda"}})->standardOutput == "{}");
    CHECK(runner.run({.argv = {"losetup", "-f"}})->standardOutput == "/dev/loop0\n");
    CHECK(runner.run({.argv = {"losetup", "-f"}})->standardOutput == "/dev/loop1\n");
    auto unexpected = runner.run({.argv = {"losetup", "-f"}});
    REQUIRE_FALSE(unexpected);
    CHECK(unexpected.error().code() == ErrorCode::ToolMissing);
    CHECK(runner.requests().size() == 5);
}
