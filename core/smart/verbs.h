#pragma once
// The SMART and self-test privileged verbs (docs/health.md): their names, typed requests and
// results, and the JSON of each. The helper (helper/smart_verbs.cpp) parses every request with
// these fromJson functions and answers with these results; the CLI and the GUI send these
// requests through a SmartClient (core/smart/smart_client.h) or, for smart.read, through
// HealthService. Nobody spells a verb name or a key of these objects anywhere else.
//
// A request's fromJson refuses what the helper refuses: unknown keys, wrong types, values out
// of range (InvalidArgument naming the argument, core/base/json_args.h). Device paths are only
// taken here as strings: the helper resolves and validates them itself.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/smart/selftest.h"
#include "core/smart/smart_source.h"

namespace ssdk::smart {

inline constexpr const char* kVerbSmartRead = "smart.read";
inline constexpr const char* kVerbSelfTestStart = "selftest.start";
inline constexpr const char* kVerbSelfTestAbort = "selftest.abort";
// Every SMART verb, in the order above.
inline constexpr const char* kSmartVerbs[] = {kVerbSmartRead, kVerbSelfTestStart,
                                              kVerbSelfTestAbort};

// The longest device path a request may carry (PATH_MAX).
inline constexpr std::size_t kMaxDevicePathBytes = 4096;

// smart.read {device, wake?} → RawReport. wake: read a sleeping disk too (ReadOptions).
struct ReadRequest {
    std::string device;
    bool wake = false;
};
Json toJson(const ReadRequest& request);
Expected<ReadRequest> readRequestFromJson(const Json& args);

// {"format": "smartctl-json"|"atasmart-blob", "data": text or lowercase hex}: the raw output
// smart.read hands to the unprivileged side, which parses it (also the health history's form).
// A malformed answer is a Protocol error.
Json toJson(const RawReport& raw);
Expected<RawReport> rawReportFromJson(const Json& json);

// selftest.start {device, test: short|long} → SelfTestReply.
struct SelfTestStartRequest {
    std::string device;
    SelfTestAction test = SelfTestAction::Short; // never Abort
};
Json toJson(const SelfTestStartRequest& request);
Expected<SelfTestStartRequest> selfTestStartRequestFromJson(const Json& args);

// selftest.abort {device} → SelfTestReply.
struct SelfTestAbortRequest {
    std::string device;
};
Json toJson(const SelfTestAbortRequest& request);
Expected<SelfTestAbortRequest> selfTestAbortRequestFromJson(const Json& args);

// {started: short|long, device, messages} or {aborted: "self-test", device, messages}; device:
// the node the helper ran smartctl on, messages: what smartctl said.
struct SelfTestReply {
    SelfTestAction action = SelfTestAction::Short; // Abort: the "aborted" form
    std::string device;
    std::vector<std::string> messages;
};
Json toJson(const SelfTestReply& reply);
Expected<SelfTestReply> selfTestReplyFromJson(const Json& json);

} // namespace ssdk::smart
