#pragma once

#include "core/base/process_runner.h"

namespace ssdk {

// fork/exec with pipes for stdin, stdout and stderr, polled until exit or timeout.
// On timeout the child's process group gets SIGTERM, then SIGKILL after a grace period.
class SystemProcessRunner final : public ProcessRunner {
public:
    Expected<ProcessResult> run(const ProcessRequest& request) override;
};

// Finds a program in PATH the way execvp would; empty when absent.
std::string findExecutable(const std::string& name);

} // namespace ssdk
