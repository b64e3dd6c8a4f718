#pragma once

#include <memory>
#include <optional>

#include "core/firmware/fwupd.h"
#include "core/lab/lab.h"
#include "core/maintenance/transport/nvme_admin.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Firmware verbs (docs/firmware.md lists their JSON):
//   firmware.info    {device}                                                  Read
//   firmware.plan    {device, slot, action, image_size?, confirm_system_disk?} Read
//   firmware.update  {device, slot, action, image?, confirm_system_disk?}      Destroy
// image is an absolute path to a regular file (not for action "activate"); plan takes only its
// size (the client reads it), so a verb anyone may call never stats files as root. plan reads
// the drive and answers the pre-flight checks without changing anything; update reads the
// image once, with `caller`'s file access rights (nothing: root's), re-checks the pre-flight
// checks with its real size and downloads/commits those same bytes with "progress" events.
// fwupd (null: not probed) answers firmware.info's fwupd path. Installing through fwupd is no
// helper verb: the fwupd daemon does the privileged work and asks polkit itself
// (docs/firmware.md).
void addFirmwareVerbs(HelperService& service, maintenance::transport::NvmeAdminFactory nvme,
                      std::shared_ptr<firmware::FwupdService> fwupd,
                      std::optional<lab::LabOwner> caller = std::nullopt);

} // namespace ssdk::helper
