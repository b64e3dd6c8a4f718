#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/base/system_process_runner.h"

namespace ssdk::test {

// Runs one of the project's built programs (build/<preset>/bin/NAME) with arguments.
inline ProcessResult runTool(const std::string& name, std::vector<std::string> args) {
    args.insert(args.begin(), std::string(SSDK_BINARY_DIR) + "/bin/" + name);
    SystemProcessRunner runner;
    auto result = runner.run({.argv = args, .timeout = std::chrono::seconds(120)});
    REQUIRE(result);
    return *result;
}

inline ProcessResult runCtl(std::vector<std::string> args) {
    return runTool("ssdkeeperctl", std::move(args));
}

// Parses a tool's stdout as JSON, failing the test with the output when it is not.
inline Json stdoutJson(const ProcessResult& result) {
    auto json = parseJson(result.standardOutput, "the tool's output");
    INFO(result.standardOutput << result.standardError);
    REQUIRE(json);
    return *json;
}

} // namespace ssdk::test
