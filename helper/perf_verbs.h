#pragma once

#include "core/base/process_runner.h"
#include "core/device/device.h"
#include "core/perf/bench_plan.h"
#include "core/perf/verbs.h"
#include "helper/helper_service.h"

namespace ssdk::helper {

// Benchmarks on a raw block device, which an unprivileged user cannot open (docs/cli.md):
//   perf.bench {device, preset, confirm, size?, duration_s?, loops?, pick?, round_s?, gaps_s?,
//               burst?} → the result document (perf::resultDocument)              Destroy
// The device must be a whole drive, not the system disk, not mounted or held, writable, and
// `confirm` must be its confirmation word (the model, else the kernel name; see
// maintenance::erase::confirmationWord). While fio runs, a "progress" event every second
// carries the fraction of the expected time, a text and the drive's rates
// (read/write_bytes_per_s, read/write_iops). A cancel message from the client (or the client
// going away) stops fio cleanly through its trigger file; the call then fails Cancelled.
// cancelFd: the helper's request input, watched for that cancel (-1: not cancellable).
void addPerfVerbs(HelperService& service, ProcessRunner& runner, int cancelFd);

// What perf.bench checks about the drive and the request before anything runs (pure: the
// verb calls it on a fresh discovery of the device). Errors: PermissionDenied (system
// disk, read-only), Busy (mounted or held), InvalidArgument (wrong or missing confirmation,
// a size larger than the drive).
Expected<perf::BenchOptions> checkBenchRequest(const perf::BenchRequest& request,
                                               const device::Device& device);
// The same for the verb's arguments, parsed first (perf::benchRequestFromJson: bad options
// are InvalidArgument, an unknown preset Unsupported).
Expected<perf::BenchOptions> checkBenchRequest(const Json& args, const device::Device& device);

} // namespace ssdk::helper
