#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace ssdk {

// One program to start. argv[0] is looked up in PATH when it has no slash.
// There is no shell: each argument reaches the program exactly as given.
struct ProcessRequest {
    std::vector<std::string> argv;
    std::chrono::milliseconds timeout{std::chrono::seconds(60)};
    std::string standardInput;
    // Extra variables set on top of the inherited environment (e.g. LC_ALL=C).
    std::map<std::string, std::string> environment;
};

struct ProcessResult {
    int exitCode = 0; // the exit status; 128+N when killed by signal N
    std::string standardOutput;
    std::string standardError;

    bool succeeded() const { return exitCode == 0; }
};

// Runs external programs. Real code uses SystemProcessRunner; tests replay recorded
// output with ReplayProcessRunner. Errors: ToolMissing when the program is not installed,
// Timeout when it outlived the request's timeout (it is killed), Io when it could not start.
// A program that ran and exited non-zero is not an error here: callers read exitCode.
class ProcessRunner {
public:
    virtual ~ProcessRunner() = default;
    virtual Expected<ProcessResult> run(const ProcessRequest& request) = 0;
};

// Renders argv for logs and error messages, quoting arguments with spaces.
std::string describeCommand(const std::vector<std::string>& argv);

// Runs a request and turns a non-zero exit into a ProcessFailed error with stderr in it.
Expected<ProcessResult> runChecked(ProcessRunner& runner, const ProcessRequest& request);

} // namespace ssdk
