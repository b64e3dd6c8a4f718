#pragma once
// The operating system as the programs see it: one object that hands out each area's seam
// with that OS's implementation behind it. The interfaces are the areas' own (ProcessRunner,
// device::FsProber, overprovision::DiskEditor, the erase TransportFactory, perf::StatSource,
// rpc::Transport); the implementations stay in each area's platform/<os>/, and
// platform/<os>/ here only composes them. Each program makes one Platform in main
// (makePlatform) and hands it down; tests hand down a fake. What the make… members return
// does not refer to the Platform and may outlive it.

#include <memory>

#include "core/base/process_runner.h"
#include "core/base/sysfs_root.h"
#include "core/device/discovery.h"
#include "core/device/fs_probe.h"
#include "core/maintenance/erase/eraser.h"
#include "core/overprovision/disk_editor.h"
#include "core/perf/sampler.h"
#include "core/rpc/transport.h"

namespace ssdk::platform {

class Platform {
public:
    virtual ~Platform() = default;
    Platform() = default;
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;

    // Runs external programs (smartctl, fio, sfdisk, systemctl, …). Lives as long as the
    // Platform; safe to call from several threads at once.
    virtual ProcessRunner& processRunner() = 0;

    // Filesystem and partition-table facts of the block devices of root (live: udev's
    // database, then libblkid on the node).
    virtual std::shared_ptr<device::FsProber> makeFsProber(const SysfsRoot& root) const = 0;

    // Edits partition tables and discards ranges; runs its tools through runner, which must
    // outlive it (callers pass processRunner() or, in tests, a replaying runner).
    virtual std::unique_ptr<overprovision::DiskEditor> makeDiskEditor(ProcessRunner& runner,
                                                                      SysfsRoot root) const = 0;

    // Opens SCSI (ATA pass-through) and NVMe admin transports on device nodes: what erase and
    // firmware send their commands through.
    virtual maintenance::erase::TransportFactory transports() const = 0;

    // The block layer's per-device I/O counters of root, which the throughput sampler reads.
    virtual std::unique_ptr<perf::StatSource> makeStatSource(SysfsRoot root) const = 0;

    // A new session with the privileged helper (ssdkeeper-helper, elevated the OS's way),
    // started on its first call. Every program shares one session (AppServices, CliContext).
    virtual std::shared_ptr<rpc::Transport> makeHelperSession() const = 0;

    // The device source: discovery of root's block devices with makeFsProber(root).
    device::Discovery makeDiscovery(SysfsRoot root) const;
};

// The running OS's Platform. The one place that chooses an OS.
std::unique_ptr<Platform> makePlatform();

} // namespace ssdk::platform
