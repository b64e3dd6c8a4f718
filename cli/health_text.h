#pragma once

#include <string>

#include "core/smart/health_json.h"

namespace ssdk::cli {

// Human output of `ssdkeeperctl health`: identity, verdict with reasons, derived values,
// the ATA attribute table or the NVMe health log, self-test state and warnings.
std::string formatDriveHealth(const smart::DriveHealth& health);
// Self-test progress and log (`ssdkeeperctl selftest DEV status`).
std::string formatSelfTest(const smart::DriveHealth& health);

} // namespace ssdk::cli
