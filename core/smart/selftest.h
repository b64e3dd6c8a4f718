#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/process_runner.h"

namespace ssdk::smart {

// Device self-tests (ATA SMART EXECUTE OFF-LINE IMMEDIATE, NVMe Device Self-test), started and
// aborted with smartctl. Progress and the self-test log come with the next health read
// (SmartReport::selfTest, from `smartctl -x`).
enum class SelfTestAction { Short, Long, Abort };

std::string_view toString(SelfTestAction action); // "short", "long", "abort"
Expected<SelfTestAction> parseSelfTestAction(std::string_view text);

// smartctl --json=c -t short|long DEV, or smartctl --json=c -X DEV.
std::vector<std::string> selfTestCommand(SelfTestAction action, const std::string& devicePath,
                                         const std::string& smartctl = "smartctl");

// Runs the command and checks smartctl's answer: exit bits 0-2 and its error messages
// become an error (Unsupported when the drive cannot run self-tests).
// Returns smartctl's own message lines ("Testing has begun.", "Please wait 2 minutes…").
Expected<std::vector<std::string>> runSelfTestCommand(ProcessRunner& runner, SelfTestAction action,
                                                      const std::string& devicePath);

// The pure part of runSelfTestCommand: judging smartctl's JSON answer.
Expected<std::vector<std::string>> parseSelfTestAnswer(std::string_view json);

} // namespace ssdk::smart
