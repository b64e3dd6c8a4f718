#include "core/smart/atasmart_source.h"

#include <atasmart.h>
#include <cerrno>
#include <cstring>
#include <memory>
#include <unistd.h>

#include "core/smart/platform/linux/atasmart_disk.h"

namespace ssdk::smart {

Availability AtasmartSource::availability() {
    if (::geteuid() != 0) {
        return {false, "libatasmart needs root to send ATA commands"};
    }
    return {true, {}};
}

Expected<RawReport> AtasmartSource::capture(const std::string& devicePath,
                                            const ReadOptions& options) {
    const std::string what = "reading SMART of " + devicePath + " with libatasmart";
    SkDisk* opened = nullptr;
    if (sk_disk_open(devicePath.c_str(), &opened) < 0) {
        const int error = errno;
        if (error == ENODEV || error == ENOTSUP || error == EINVAL || error == ENOTTY) {
            return fail(ErrorCode::Unsupported,
                        what + ": not an ATA device libatasmart can talk to (" +
                            std::strerror(error) + ")");
        }
        return failErrno(error, what);
    }
    const SkDiskPtr disk(opened);
    SkBool available = 0;
    if (sk_disk_smart_is_available(disk.get(), &available) < 0 || available == 0) {
        return fail(ErrorCode::Unsupported, what + ": the drive does not offer SMART");
    }
    if (!options.wakeSleepingDisk) {
        SkBool awake = 1;
        if (sk_disk_check_sleep_mode(disk.get(), &awake) >= 0 && awake == 0) {
            return fail(ErrorCode::Busy, devicePath + " is asleep (standby) and was not woken");
        }
    }
    if (sk_disk_smart_read_data(disk.get()) < 0) {
        return failErrno(errno, what + ": SMART READ DATA");
    }
    const void* blob = nullptr;
    std::size_t size = 0;
    if (sk_disk_get_blob(disk.get(), &blob, &size) < 0) {
        return failErrno(errno, what + ": saving the blob");
    }
    RawReport raw;
    raw.format = RawReport::Format::AtasmartBlob;
    const auto* bytes = static_cast<const std::uint8_t*>(blob);
    raw.bytes.assign(bytes, bytes + size);
    return raw;
}

} // namespace ssdk::smart
