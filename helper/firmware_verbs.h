#pragma once

#include "core/base/process_runner.h"
#include "core/firmware/nvme_admin.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Firmware verbs (docs/firmware.md lists their JSON):
//   firmware.info    {device}                                                  Read
//   firmware.plan    {device, slot, action, image_size?, confirm_system_disk?} Read
//   firmware.update  {device, slot, action, image?, confirm_system_disk?}      Destroy
// image is an absolute path to a regular file (not for action "activate"); plan takes only its
// size (the client reads it), so a verb anyone may call never stats files as root. plan reads
// the drive and answers the pre-flight checks without changing anything; update re-checks
// them with the file's real size and downloads/commits with "progress" events.
void addFirmwareVerbs(HelperService& service, ProcessRunner& runner,
                      firmware::NvmeAdminFactory nvme);

// libnvme on the live system.
firmware::NvmeAdminFactory systemNvmeAdmin();

} // namespace ssdk::helper
