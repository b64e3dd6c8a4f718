#include "core/smart/selftest.h"

#include "core/base/json.h"

namespace ssdk::smart {

std::string_view toString(SelfTestAction action) {
    switch (action) {
    case SelfTestAction::Short:
        return "short";
    case SelfTestAction::Long:
        return "long";
    case SelfTestAction::Abort:
        break;
    }
    return "abort";
}

Expected<SelfTestAction> parseSelfTestAction(std::string_view text) {
    if (text == "short") {
        return SelfTestAction::Short;
    }
    if (text == "long") {
        return SelfTestAction::Long;
    }
    if (text == "abort") {
        return SelfTestAction::Abort;
    }
    return fail(ErrorCode::InvalidArgument,
                "self-test must be short, long or abort, not '" + std::string(text) + "'");
}

std::vector<std::string> selfTestCommand(SelfTestAction action, const std::string& devicePath,
                                         const std::string& smartctl) {
    if (action == SelfTestAction::Abort) {
        return {smartctl, "--json=c", "-X", devicePath};
    }
    return {smartctl, "--json=c", "-t", std::string(toString(action)), devicePath};
}

Expected<std::vector<std::string>> parseSelfTestAnswer(std::string_view text) {
    auto parsed = parseJson(text, "smartctl output");
    if (!parsed) {
        return std::unexpected(parsed.error());
    }
    const Json& root = *parsed;
    if (!root.is_object()) {
        return fail(ErrorCode::Parse, "smartctl output is not a JSON object");
    }
    std::vector<std::string> messages;
    std::vector<std::string> errors;
    unsigned exitStatus = 0;
    if (auto it = root.find("smartctl"); it != root.end() && it->is_object()) {
        if (auto status = it->find("exit_status");
            status != it->end() && status->is_number_unsigned()) {
            exitStatus = static_cast<unsigned>(status->get<std::uint64_t>() & 0xff);
        }
        if (auto list = it->find("messages"); list != it->end() && list->is_array()) {
            for (const auto& message : *list) {
                if (!message.is_object() || !message.contains("string") ||
                    !message["string"].is_string()) {
                    continue;
                }
                const auto& line = message["string"].get_ref<const std::string&>();
                const bool isError = message.value("severity", std::string()) == "error";
                (isError ? errors : messages).push_back(line);
            }
        }
    }
    if ((exitStatus & 0x07) != 0) {
        std::string why;
        for (const auto& line : errors) {
            why += (why.empty() ? "" : "; ") + line;
        }
        if (why.empty()) {
            why = "exit status " + std::to_string(exitStatus);
        }
        const bool unsupported = why.find("not supported") != std::string::npos ||
                                 why.find("Unable to detect") != std::string::npos ||
                                 why.find("does not support") != std::string::npos;
        return fail(unsupported ? ErrorCode::Unsupported : ErrorCode::ProcessFailed,
                    "smartctl could not run the self-test command: " + why);
    }
    return messages;
}

Expected<std::vector<std::string>> runSelfTestCommand(ProcessRunner& runner, SelfTestAction action,
                                                      const std::string& devicePath) {
    auto result = runner.run({.argv = selfTestCommand(action, devicePath)});
    if (!result) {
        return std::unexpected(result.error());
    }
    return withContext(parseSelfTestAnswer(result->standardOutput),
                       std::string(toString(action)) + " self-test on " + devicePath);
}

} // namespace ssdk::smart
