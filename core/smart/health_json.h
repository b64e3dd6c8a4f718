#pragma once

#include <optional>
#include <string>

#include "core/base/json.h"
#include "core/smart/health.h"
#include "core/smart/report.h"

namespace ssdk::smart {

// One drive's health as the CLI prints it with --json and the GUI shows it: the report, what
// was derived from it and the assessment. docs/cli.md lists every field; unknown values are
// null, never 0. 128-bit counters are decimal strings when they exceed 2^53.
// What discovery knows of a drive (sysfs, udev) without SMART: the model and serial of a
// virtio disk, a drive behind a bridge that blocks SMART, a lab drive.
struct DriveIdentity {
    std::string model, serial, firmware;
};

struct DriveHealth {
    std::string device; // "/dev/sda", or the replayed file
    std::optional<SmartReport> report;
    DriveIdentity identity; // from discovery; the report's own identity comes first
    DerivedValues derived;
    Assessment assessment;
};

// Builds the DriveHealth of a report (derive + assess).
DriveHealth makeDriveHealth(std::string device, SmartReport report,
                            const AssessmentOptions& options = {});
// A drive whose SMART could not be read: verdict unknown with reason code "no-smart".
DriveHealth makeNoSmartHealth(std::string device, const std::string& why);

Json toJson(const DriveHealth& health);
// A 128-bit byte count for people, in the binary units every size in SSD Keeper uses: "11.2 TiB".
std::string formatByteCount(const UInt128& bytes);

// A span of time for people, in the one unit every view of it uses: whole hours below two days,
// whole days below a year, else years with one decimal (a year is 365 days). The GUI and the
// CLI word it each their own way from these figures, so they always agree.
struct FriendlyDuration {
    enum class Unit { Hours, Days, Years };
    Unit unit = Unit::Hours;
    double value = 0; // rounded: to whole hours or days, years to one decimal
};
FriendlyDuration friendlyDuration(double hours);

// A 128-bit counter as a JSON number when exact in a double (< 2^53), else a decimal string.
Json counterJson(const UInt128& value);

} // namespace ssdk::smart
