#pragma once

#include "core/base/process_runner.h"
#include "core/firmware/nvme_admin.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Firmware verbs (docs/firmware.md lists their JSON):
//   firmware.info    {device}                                                  Read
//   firmware.plan    {device, slot, action, image?, confirm_system_disk?}      Read
//   firmware.update  {device, slot, action, image?, confirm_system_disk?}      Destroy
// image is an absolute path to a regular file (not needed for action "activate"). plan reads
// the drive and the image size and answers the pre-flight checks without changing anything;
// update re-checks them and downloads/commits with "progress" events.
void addFirmwareVerbs(HelperService& service, ProcessRunner& runner,
                      firmware::NvmeAdminFactory nvme);

// libnvme on the live system.
firmware::NvmeAdminFactory systemNvmeAdmin();

} // namespace ssdk::helper
