#include "core/overprovision/disk_editor.h"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <libfdisk/libfdisk.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <memory>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/base/atomic_file.h"
#include "core/base/log.h"
#include "core/base/unique_fd.h"

namespace ssdk::overprovision {

namespace {

struct ContextDeleter {
    void operator()(fdisk_context* context) const { fdisk_unref_context(context); }
};
struct PartitionDeleter {
    void operator()(fdisk_partition* partition) const { fdisk_unref_partition(partition); }
};
using ContextPtr = std::unique_ptr<fdisk_context, ContextDeleter>;
using PartitionPtr = std::unique_ptr<fdisk_partition, PartitionDeleter>;

// A libfdisk context on `device` with its partition table read.
Expected<ContextPtr> openTable(const std::string& device, bool readOnly) {
    ContextPtr context(fdisk_new_context());
    if (!context) {
        return fail(ErrorCode::Internal, "libfdisk: no memory for a context");
    }
    if (int rc = fdisk_assign_device(context.get(), device.c_str(), readOnly ? 1 : 0); rc != 0) {
        return failErrno(-rc, "opening " + device + " with libfdisk");
    }
    if (!fdisk_has_label(context.get())) {
        return fail(ErrorCode::NotFound, device + " has no partition table");
    }
    if (!fdisk_is_labeltype(context.get(), FDISK_DISKLABEL_GPT) &&
        !fdisk_is_labeltype(context.get(), FDISK_DISKLABEL_DOS)) {
        return fail(ErrorCode::Unsupported, device + ": only GPT and MBR tables are edited");
    }
    return context;
}

// libfdisk numbers partitions from 0; the kernel and users from 1.
Expected<PartitionPtr> getPartition(fdisk_context* context, const std::string& device,
                                    std::uint32_t number) {
    fdisk_partition* raw = nullptr;
    if (number == 0 || fdisk_get_partition(context, number - 1, &raw) != 0 || raw == nullptr) {
        return fail(ErrorCode::NotFound, fmt::format("{} has no partition {}", device, number));
    }
    PartitionPtr partition(raw);
    if (!fdisk_partition_has_start(raw) || !fdisk_partition_has_size(raw)) {
        return fail(ErrorCode::NotFound,
                    fmt::format("partition {} of {} has no extent", number, device));
    }
    return partition;
}

std::string partitionName(const std::string& deviceName, std::uint32_t number) {
    const bool endsInDigit =
        !deviceName.empty() && deviceName.back() >= '0' && deviceName.back() <= '9';
    return deviceName + (endsInDigit ? "p" : "") + std::to_string(number);
}

} // namespace

LinuxDiskEditor::LinuxDiskEditor(ProcessRunner& runner, SysfsRoot root)
    : m_runner(runner)
    , m_root(std::move(root)) {}

Expected<std::string> LinuxDiskEditor::dumpTable(const std::string& device) {
    auto dump = runChecked(
        m_runner, {.argv = {"sfdisk", "--dump", device}, .environment = {{"LC_ALL", "C"}}});
    if (!dump) {
        return std::unexpected(dump.error().addContext("backing up the partition table"));
    }
    return std::move(dump->standardOutput);
}

Expected<DiskEditor::Extent> LinuxDiskEditor::partitionOnDisk(const std::string& device,
                                                              std::uint32_t number) {
    auto context = openTable(device, true);
    if (!context) {
        return std::unexpected(context.error());
    }
    auto partition = getPartition(context->get(), device, number);
    if (!partition) {
        return std::unexpected(partition.error());
    }
    const std::uint64_t sector = fdisk_get_sector_size(context->get());
    return Extent{Bytes(fdisk_partition_get_start(partition->get()) * sector),
                  Bytes(fdisk_partition_get_size(partition->get()) * sector)};
}

Expected<void> LinuxDiskEditor::resizePartition(const std::string& device, std::uint32_t number,
                                                Bytes newSize) {
    auto context = openTable(device, false);
    if (!context) {
        return std::unexpected(context.error());
    }
    auto partition = getPartition(context->get(), device, number);
    if (!partition) {
        return std::unexpected(partition.error());
    }
    const std::uint64_t sector = fdisk_get_sector_size(context->get());
    if (newSize.value % sector != 0) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} bytes is not a whole number of {}-byte sectors", newSize.value,
                                sector));
    }
    const std::uint64_t sectors = newSize.value / sector;
    if (fdisk_partition_get_size(partition->get()) == sectors) {
        return {};
    }
    PartitionPtr change(fdisk_new_partition());
    if (!change) {
        return fail(ErrorCode::Internal, "libfdisk: no memory for a partition");
    }
    // Only the size is set: libfdisk keeps the start, type, UUID, name and attributes.
    if (int rc = fdisk_partition_set_size(change.get(), sectors); rc != 0) {
        return failErrno(-rc, "libfdisk: setting the size");
    }
    if (int rc = fdisk_set_partition(context->get(), number - 1, change.get()); rc != 0) {
        return failErrno(-rc, fmt::format("libfdisk: resizing partition {} of {}", number, device));
    }
    if (int rc = fdisk_write_disklabel(context->get()); rc != 0) {
        return failErrno(-rc, "libfdisk: writing the partition table of " + device);
    }
    if (int rc = fdisk_deassign_device(context->get(), 0); rc != 0) {
        return failErrno(-rc, "libfdisk: syncing " + device);
    }
    log::get("overprovision")
        ->info("partition {} of {} resized to {} sectors", number, device, sectors);
    return {};
}

Expected<void> LinuxDiskEditor::informKernel(const std::string& device, std::uint32_t number,
                                             Bytes start, Bytes size) {
    const std::string deviceName = std::filesystem::path(device).filename().string();
    const std::string name = partitionName(deviceName, number);
    const auto sysfsSize = m_root.tryU64(m_root.sys() / "block" / deviceName / name / "size");
    if (sysfsSize && Bytes::sectors512(*sysfsSize) == size) {
        return {};
    }
    UniqueFd fd(::open(device.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + device);
    }
    blkpg_partition part{};
    part.start = static_cast<long long>(start.value);
    part.length = static_cast<long long>(size.value);
    part.pno = static_cast<int>(number);
    blkpg_ioctl_arg arg{};
    arg.op = sysfsSize ? BLKPG_RESIZE_PARTITION : BLKPG_ADD_PARTITION;
    arg.datalen = sizeof(part);
    arg.data = &part;
    if (::ioctl(fd.get(), BLKPG, &arg) != 0) {
        return failErrno(errno, fmt::format("telling the kernel partition {} of {} is now {} "
                                            "bytes (BLKPG)",
                                            number, device, size.value));
    }
    const auto after = m_root.tryU64(m_root.sys() / "block" / deviceName / name / "size");
    if (!after || Bytes::sectors512(*after) != size) {
        return fail(ErrorCode::Io, fmt::format("the kernel shows {} with {} sectors after BLKPG, "
                                               "not {}",
                                               name, after.value_or(0), size.value / 512));
    }
    return {};
}

Expected<void> LinuxDiskEditor::discard(const std::string& device, Bytes start, Bytes length) {
    if (length.value == 0) {
        return {};
    }
    UniqueFd fd(::open(device.c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + device + " for discard");
    }
    std::uint64_t range[2] = {start.value, length.value};
    if (::ioctl(fd.get(), BLKDISCARD, &range) != 0) {
        const int err = errno;
        if (err == EOPNOTSUPP) {
            return fail(ErrorCode::Unsupported, device + " does not accept discards");
        }
        return failErrno(
            err, fmt::format("discarding {} bytes at {} of {}", length.value, start.value, device));
    }
    return {};
}

} // namespace ssdk::overprovision
