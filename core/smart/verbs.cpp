#include "core/smart/verbs.h"

#include "core/base/json_args.h"

namespace ssdk::smart {

namespace {

constexpr std::size_t kMaxTestBytes = 8;

std::string toHex(const std::vector<std::uint8_t>& bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (const auto byte : bytes) {
        hex.push_back(kDigits[byte >> 4]);
        hex.push_back(kDigits[byte & 0x0f]);
    }
    return hex;
}

Expected<std::vector<std::uint8_t>> fromHex(const std::string& hex) {
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    };
    if (hex.size() % 2 != 0) {
        return fail(ErrorCode::Protocol, "blob data has an odd number of hex digits");
    }
    std::vector<std::uint8_t> bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int high = nibble(hex[i]);
        const int low = nibble(hex[i + 1]);
        if (high < 0 || low < 0) {
            return fail(ErrorCode::Protocol, "blob data is not lowercase hex");
        }
        bytes.push_back(static_cast<std::uint8_t>(high * 16 + low));
    }
    return bytes;
}

} // namespace

Json toJson(const ReadRequest& request) {
    return Json{{"device", request.device}, {"wake", request.wake}};
}

Expected<ReadRequest> readRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "wake"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto wake = boolArg(args, "wake", false);
    if (!wake) {
        return std::unexpected(wake.error());
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    return ReadRequest{*device, *wake};
}

Json toJson(const RawReport& raw) {
    const bool text = raw.format == RawReport::Format::SmartctlJson;
    return Json{
        {"format", toString(raw.format)},
        {"data", text ? std::string(raw.bytes.begin(), raw.bytes.end()) : toHex(raw.bytes)}};
}

Expected<RawReport> rawReportFromJson(const Json& json) {
    if (!json.is_object() || !json.contains("format") || !json["format"].is_string() ||
        !json.contains("data") || !json["data"].is_string()) {
        return fail(ErrorCode::Protocol,
                    std::string(kVerbSmartRead) + " answered without format and data");
    }
    const auto& format = json["format"].get_ref<const std::string&>();
    const auto& data = json["data"].get_ref<const std::string&>();
    RawReport raw;
    if (format == "smartctl-json") {
        raw.format = RawReport::Format::SmartctlJson;
        raw.bytes.assign(data.begin(), data.end());
    } else if (format == "atasmart-blob") {
        raw.format = RawReport::Format::AtasmartBlob;
        auto bytes = fromHex(data);
        if (!bytes) {
            return std::unexpected(bytes.error());
        }
        raw.bytes = std::move(*bytes);
    } else {
        return fail(ErrorCode::Protocol,
                    std::string(kVerbSmartRead) + " answered with unknown format " + format);
    }
    return raw;
}

Json toJson(const SelfTestStartRequest& request) {
    return Json{{"device", request.device}, {"test", toString(request.test)}};
}

Expected<SelfTestStartRequest> selfTestStartRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device", "test"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto test = stringArg(args, "test", kMaxTestBytes);
    if (!test) {
        return std::unexpected(test.error());
    }
    auto action = parseSelfTestAction(*test);
    if (!action || *action == SelfTestAction::Abort) {
        return fail(ErrorCode::InvalidArgument, "argument 'test' must be short or long");
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    return SelfTestStartRequest{*device, *action};
}

Json toJson(const SelfTestAbortRequest& request) {
    return Json{{"device", request.device}};
}

Expected<SelfTestAbortRequest> selfTestAbortRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto device = stringArg(args, "device", kMaxDevicePathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    return SelfTestAbortRequest{*device};
}

Json toJson(const SelfTestReply& reply) {
    const bool aborted = reply.action == SelfTestAction::Abort;
    return Json{{aborted ? "aborted" : "started",
                 aborted ? std::string("self-test") : std::string(toString(reply.action))},
                {"device", reply.device},
                {"messages", reply.messages}};
}

Expected<SelfTestReply> selfTestReplyFromJson(const Json& json) {
    return readReply(json, "the self-test answer", [&]() -> Expected<SelfTestReply> {
        SelfTestReply reply;
        if (json.contains("started")) {
            auto action = parseSelfTestAction(json["started"].get<std::string>());
            if (!action || *action == SelfTestAction::Abort) {
                return fail(ErrorCode::Parse, "the self-test answer started no short or long test");
            }
            reply.action = *action;
        } else if (json.contains("aborted")) {
            reply.action = SelfTestAction::Abort;
        } else {
            return fail(ErrorCode::Parse, "the self-test answer needs 'started' or 'aborted'");
        }
        reply.device = json.value("device", std::string());
        reply.messages = json.value("messages", std::vector<std::string>{});
        return reply;
    });
}

} // namespace ssdk::smart
