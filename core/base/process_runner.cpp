#include "core/base/process_runner.h"

#include <algorithm>

namespace ssdk {

std::string describeCommand(const std::vector<std::string>& argv) {
    std::string text;
    for (const auto& arg : argv) {
        if (!text.empty()) {
            text += ' ';
        }
        const bool quote = arg.empty() || std::ranges::any_of(arg, [](char c) {
                               return c == ' ' || c == '\t' || c == '"' || c == '\'';
                           });
        text += quote ? "'" + arg + "'" : arg;
    }
    return text;
}

Expected<ProcessResult> runChecked(ProcessRunner& runner, const ProcessRequest& request) {
    auto result = runner.run(request);
    if (!result) {
        return result;
    }
    if (!result->succeeded()) {
        std::string detail = result->standardError;
        while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' ')) {
            detail.pop_back();
        }
        return fail(ErrorCode::ProcessFailed, describeCommand(request.argv) + " exited with " +
                                                  std::to_string(result->exitCode) +
                                                  (detail.empty() ? "" : ": " + detail));
    }
    return result;
}

} // namespace ssdk
