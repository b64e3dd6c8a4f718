#pragma once

#include "core/base/process_runner.h"
#include "core/device/discovery.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// SMART verbs. Each takes a whole device or partition under /dev (validated: a real block
// device node known to the kernel; mounted devices and the system disk are allowed, because
// reading SMART and running a device self-test do not touch the data).
//   smart.read     {device, wake?: bool}            → {format, data}  (Read)
//       the raw smartctl JSON or libatasmart blob; the caller parses it (core/smart).
//   selftest.start {device, test: "short"|"long"}   → {started, messages}  (Change)
//   selftest.abort {device}                          → {aborted, messages}  (Change)
// Self-test progress and log come from smart.read.
void addSmartVerbs(HelperService& service, ProcessRunner& runner);
// The same, validating devices against this discovery (tests use a recorded sysfs tree).
void addSmartVerbs(HelperService& service, ProcessRunner& runner,
                   std::function<device::Discovery()> discovery);

} // namespace ssdk::helper
