#pragma once

#include <optional>

#include "core/base/process_runner.h"
#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/erase/journal.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// TRIM, quick format and secure erase verbs (docs/cli.md lists their JSON):
//   trim.audit   {target: mount point | /dev node}                         Read
//   trim.verify  {mount_point, mode: "fstrim"|"online", blocks?}            Change
//   trim.fstrim  {mount_point}                                              Change
//   trim.timer   {enabled: bool}                                            Change
//   format.run   {device, fs, verify?, discard_first?}                      Destroy
//   erase.probe  {device} → {…, methods, auto, refused, last_erase, interrupted}  Read
//   erase.unfreeze {device} → {suspended, frozen}: suspends the machine for 5 s (rtcwake)
//                when the ATA drive is security-frozen                      Change
//   erase.run    {device, method, confirm}                                  Destroy
// Every verb validates its arguments and re-checks its guards on a fresh discovery.
// journals: where erase.run journals each erase (the helper's own store,
// <privileged state>/erase); without one erase.run refuses (an erase is never run unjournaled).
void addMaintenanceVerbs(HelperService& service, ProcessRunner& runner,
                         maintenance::erase::TransportFactory transports,
                         std::optional<maintenance::erase::EraseJournalStore> journals = {});

} // namespace ssdk::helper
