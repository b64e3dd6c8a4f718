#pragma once

#include <string_view>

#include "core/base/error.h"
#include "core/smart/report.h"

namespace ssdk::smart {

// Parses the JSON smartctl (smartmontools >= 7.0) prints with --json/-j, e.g. for
// `smartctl --json=c -x DEV`. A pure function over the bytes.
//
// Rules of smartctl's JSON honoured here:
// - json_format_version must be [1, x]; other majors are refused (Unsupported).
// - smartctl.exit_status bits 0-1 (bad command line, device open failed) mean nothing was
//   read: an error carrying smartctl's own messages (Unsupported when the device type could not
//   be detected or the device has no SMART, ProcessFailed otherwise). Bit 2 (a SMART command
//   failed) is an error only when no identity was read; otherwise it becomes a warning.
//   Bits 3-7 describe the drive and are kept in smartctlExitStatus.
// - Integers that do not fit a double exactly are also given as "KEY_s" strings, 128-bit NVMe
//   counters as "KEY_s" and "KEY_le" byte arrays: those are read first; counters are never
//   stored in int64 or double.
// Errors: Parse (empty, not JSON, not an object), Unsupported, ProcessFailed.
Expected<SmartReport> parseSmartctlJson(std::string_view text);

// Whether bytes look like smartctl JSON (first non-space character is '{').
bool looksLikeJson(std::string_view bytes);

} // namespace ssdk::smart
