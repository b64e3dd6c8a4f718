#include "core/base/replay_process_runner.h"

namespace ssdk {

ReplayProcessRunner::Recording&
ReplayProcessRunner::recordingFor(const std::vector<std::string>& argv) {
    for (auto& recording : m_recordings) {
        if (recording.argv == argv) {
            return recording;
        }
    }
    return m_recordings.emplace_back(Recording{argv, {}, std::nullopt});
}

void ReplayProcessRunner::expect(std::vector<std::string> argv, Expected<ProcessResult> answer) {
    std::lock_guard lock(m_mutex);
    recordingFor(argv).always = std::move(answer);
}

void ReplayProcessRunner::expectOnce(std::vector<std::string> argv,
                                     Expected<ProcessResult> answer) {
    std::lock_guard lock(m_mutex);
    recordingFor(argv).once.push_back(std::move(answer));
}

Expected<ProcessResult> ReplayProcessRunner::run(const ProcessRequest& request) {
    std::lock_guard lock(m_mutex);
    m_requests.push_back(request);
    for (auto& recording : m_recordings) {
        if (recording.argv != request.argv) {
            continue;
        }
        if (!recording.once.empty()) {
            auto answer = std::move(recording.once.front());
            recording.once.pop_front();
            return answer;
        }
        if (recording.always) {
            return *recording.always;
        }
    }
    return fail(ErrorCode::ToolMissing, "no recorded answer for: " + describeCommand(request.argv));
}

std::vector<ProcessRequest> ReplayProcessRunner::requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
}

} // namespace ssdk
