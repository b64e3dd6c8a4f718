#pragma once

#include "core/base/process_runner.h"
#include "core/maintenance/erase/eraser.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// TRIM, quick format and secure erase verbs (docs/cli.md lists their JSON):
//   trim.audit   {target: mount point | /dev node}                         Read
//   trim.verify  {mount_point, mode: "fstrim"|"online", blocks?}            Change
//   trim.fstrim  {mount_point}                                              Change
//   trim.timer   {enabled: bool}                                            Change
//   format.run   {device, fs, verify?, discard_first?}                      Destroy
//   erase.probe  {device}                                                   Read
//   erase.run    {device, method, confirm}                                  Destroy
// Every verb validates its arguments and re-checks its guards on a fresh discovery.
void addMaintenanceVerbs(HelperService& service, ProcessRunner& runner,
                         maintenance::erase::TransportFactory transports);

} // namespace ssdk::helper
