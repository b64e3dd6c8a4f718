#pragma once

#include <filesystem>
#include <memory>

#include "core/base/process_runner.h"
#include "core/platform/platform.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Spare area (over-provisioning) verbs. Journals and partition-table backups live in the
// helper's own store `journalDirectory` (<privileged state>/op: root, 0700, opened without
// following links at every call); the user sees them only through op.inspect.
//
// op.inspect {device} → {device, usage, usage_error, journal}      (read; runs dumpe2fs etc.)
// op.apply   {device, spare_percent: 0–50, partition: the partition the user confirmed}
//            → {journal}; progress events {fraction, step, text}
// op.undo    {device} → {journal}: grows back what the last apply shrank
// op.recover {device, action: "finish"|"rollback"} → {journal}
// Every verb re-reads the device and re-plans; the system disk is refused for changes.
// runner runs the tools (a replaying runner in tests); platform gives discovery and the disk
// editor (the helper's main hands down its own; nullptr = makePlatform()).
void addOpVerbs(HelperService& service, std::filesystem::path journalDirectory,
                ProcessRunner& runner,
                std::shared_ptr<const platform::Platform> platform = nullptr);

} // namespace ssdk::helper
