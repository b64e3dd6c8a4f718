#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/smart/report.h"

namespace ssdk::smart {

// Whether a source can be used on this machine, and why not.
struct Availability {
    bool available = false;
    std::string reason; // empty when available
};

struct ReadOptions {
    // Reading SMART can spin up a sleeping disk; by default a sleeping disk is left alone
    // and the read fails with Busy.
    bool wakeSleepingDisk = false;
    // The device sits behind a USB bridge: smartctl's bridge types are tried in turn.
    bool usbBridge = false;
};

// The bytes a source read, before parsing: what `--replay` and "Open report…" load again.
struct RawReport {
    enum class Format { SmartctlJson, AtasmartBlob };
    Format format = Format::SmartctlJson;
    std::vector<std::uint8_t> bytes;
};
std::string_view toString(RawReport::Format format); // "smartctl-json", "atasmart-blob"

// A way to read SMART/identify data from a device. Running and parsing stay apart: capture()
// runs the tool or library and returns its raw output; parseRawReport() is pure.
class SmartSource {
public:
    virtual ~SmartSource() = default;
    virtual std::string_view name() const = 0;
    virtual Availability availability() = 0;
    // Errors: Unsupported (no SMART on this device, with the reason), Busy (asleep and not
    // woken), PermissionDenied, ToolMissing, ProcessFailed, Timeout.
    virtual Expected<RawReport> capture(const std::string& devicePath,
                                        const ReadOptions& options) = 0;
};

Expected<SmartReport> parseRawReport(const RawReport& raw);

} // namespace ssdk::smart
