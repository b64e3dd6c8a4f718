#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/smart/uint128.h"

namespace ssdk::smart {

enum class Protocol { Ata, Nvme, Scsi, Unknown };
std::string_view toString(Protocol protocol); // "ATA", "NVMe", "SCSI", "unknown"

// Where a report came from.
enum class ReportSource { Smartctl, Atasmart };
std::string_view toString(ReportSource source); // "smartctl", "libatasmart"

// One ATA SMART attribute. value/worst/thresh are the normalized 1..253 values; raw is the
// 48-bit raw field as the source decoded it, rawText how the source prints it (smartctl's
// "raw.string", e.g. "34 (Min/Max 20/45)"), prettyText libatasmart's decoded value.
struct AtaAttribute {
    std::uint8_t id = 0;
    std::string name; // smartctl/drivedb name ("Reallocated_Sector_Ct") or libatasmart's
    std::optional<std::uint8_t> value, worst, thresh;
    std::uint64_t raw = 0;
    std::string rawText;
    bool prefailure = false;
    // Bytes the source itself decoded from the raw value (libatasmart's "MB" unit, 10^6 bytes).
    std::optional<std::uint64_t> decodedBytes;
    // value <= thresh (thresh > 0) now, or worst <= thresh at some time.
    bool failingNow = false;
    bool failedInPast = false;
};

// The NVMe SMART / Health Information log page (02h). Counters are 128-bit; absent means the
// source did not report it, never zero.
struct NvmeHealthLog {
    std::uint8_t criticalWarning = 0; // bit field, see nvmeCriticalWarningBits()
    std::optional<int> temperatureC;
    std::optional<std::uint8_t> availableSpare, availableSpareThreshold, percentageUsed;
    std::optional<UInt128> dataUnitsRead, dataUnitsWritten; // units of 1000 × 512 bytes
    std::optional<UInt128> hostReads, hostWrites, controllerBusyTime, powerCycles, powerOnHours,
        unsafeShutdowns, mediaErrors, numErrLogEntries;
    std::optional<std::uint64_t> warningTempTime, criticalCompTime; // minutes
    std::vector<int> temperatureSensors;                            // °C
};

struct NvmeWarningBit {
    std::uint8_t mask;
    std::string_view code;    // "nvme-spare-below-threshold"
    std::string_view meaning; // "available spare is below its threshold"
};
// Bits 0..5 of the critical warning byte (NVMe base spec 5.14.1.2).
const std::vector<NvmeWarningBit>& nvmeCriticalWarningBits();

// A device self-test, running or logged.
struct SelfTestEntry {
    std::string type;   // "Short offline", "Extended", …
    std::string status; // the source's words: "Completed without error"
    bool passed = true;
    std::optional<std::uint64_t> lifetimeHours;
};

struct SelfTestState {
    bool running = false;
    std::optional<int> percentRemaining; // of the running test
    std::string statusText;
    std::optional<int> shortMinutes, extendedMinutes; // recommended polling times
    std::vector<SelfTestEntry> log;                   // newest first
};

// What a health source read about one drive. Unknown values stay empty (never 0).
struct SmartReport {
    ReportSource source = ReportSource::Smartctl;
    Protocol protocol = Protocol::Unknown;
    std::string devicePath; // as the source named it, may be empty for blobs
    std::string model, serial, firmware, modelFamily;
    std::optional<std::uint64_t> capacityBytes;
    std::optional<std::uint32_t> logicalBlockSize;
    std::optional<bool> isSsd, trimSupported;
    std::optional<bool> smartAvailable, smartEnabled;
    std::optional<bool> smartOverallPassed;

    std::optional<int> temperatureC, temperatureLifetimeMinC, temperatureLifetimeMaxC;
    std::optional<int> temperatureWarningC, temperatureCriticalC; // the drive's own limits
    std::optional<std::uint64_t> powerOnHours, powerCycles;

    std::vector<AtaAttribute> attributes; // ATA only
    std::optional<std::uint64_t> ataErrorLogCount;
    std::optional<NvmeHealthLog> nvme;
    std::optional<std::uint64_t> scsiGrownDefects, scsiUncorrectedErrors;
    std::optional<std::uint8_t> scsiPercentageUsed; // SSD endurance indicator
    std::optional<SelfTestState> selfTest;

    // smartctl's exit status (bits 3-7 describe the drive) and its messages.
    std::optional<std::uint8_t> smartctlExitStatus;
    std::vector<std::string> warnings;

    const AtaAttribute* attribute(std::uint8_t id) const;
};

} // namespace ssdk::smart
