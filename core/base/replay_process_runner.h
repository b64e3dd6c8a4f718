#pragma once

#include <deque>
#include <mutex>
#include <optional>

#include "core/base/process_runner.h"

namespace ssdk {

// A ProcessRunner for tests: answers each command with a recorded result and remembers
// every request. A command with no recording is answered with ToolMissing, so a test
// notices unexpected calls instead of silently running something real.
class ReplayProcessRunner final : public ProcessRunner {
public:
    // Answers exactly this argv (every time, unless queued answers are left).
    void expect(std::vector<std::string> argv, Expected<ProcessResult> answer);
    // Answers this argv once; several queued answers are given in order.
    void expectOnce(std::vector<std::string> argv, Expected<ProcessResult> answer);

    Expected<ProcessResult> run(const ProcessRequest& request) override;

    std::vector<ProcessRequest> requests() const;

private:
    struct Recording {
        std::vector<std::string> argv;
        std::deque<Expected<ProcessResult>> once;
        std::optional<Expected<ProcessResult>> always;
    };
    Recording& recordingFor(const std::vector<std::string>& argv);

    mutable std::mutex m_mutex;
    std::vector<Recording> m_recordings;
    std::vector<ProcessRequest> m_requests;
};

} // namespace ssdk
