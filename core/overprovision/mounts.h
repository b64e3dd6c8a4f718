#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/device/mountinfo.h"

namespace ssdk::overprovision {

// The mount of `source` at `mountPoint` in mountinfo text, if there is one. Pure.
std::optional<device::MountInfoEntry> findMount(std::string_view mountInfo, std::string_view source,
                                                std::string_view mountPoint);

// True when /proc/<pid>/maps text maps a file of the device major:minor. Pure.
bool mapsUseDevice(std::string_view maps, std::uint32_t major, std::uint32_t minor);

// The processes that would keep a filesystem on the block device major:minor from being
// unmounted: an open file descriptor, working directory, root or executable on it, or a mapped
// file. Each as "PID (command)". Linux: reads procRoot (normally /proc); processes that exit
// meanwhile are skipped.
std::vector<std::string> findMountUsers(const std::filesystem::path& procRoot, std::uint32_t major,
                                        std::uint32_t minor);

// The same for the block device node blockDevice ("/dev/sda2"); nothing when it is not one.
std::vector<std::string> findMountUsers(const std::filesystem::path& procRoot,
                                        const std::string& blockDevice);

// Whether this process may grow a mounted ext filesystem: EXT4_IOC_RESIZE_FS needs
// CAP_SYS_RESOURCE, which containers often drop (Linux: /proc/self/status).
bool mayResizeExtOnline();

} // namespace ssdk::overprovision
