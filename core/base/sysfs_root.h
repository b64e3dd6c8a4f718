#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace ssdk {

// Where the kernel's pseudo-filesystems are. Real code uses the defaults ("/sys", "/proc",
// "/dev", "/run"); tests point it at a recorded tree (tests/data/sysfs/<name>/) holding
// sys/, proc/ and run/ subdirectories, so discovery runs on another machine's data.
class SysfsRoot {
public:
    // The live system.
    SysfsRoot();
    // A recorded tree: <root>/sys, <root>/proc, <root>/run; /dev paths stay "/dev".
    explicit SysfsRoot(std::filesystem::path recordedRoot);

    bool isLive() const { return m_live; }
    const std::filesystem::path& sys() const { return m_sys; }
    const std::filesystem::path& proc() const { return m_proc; }
    const std::filesystem::path& run() const { return m_run; }

    // Reads a whole small attribute file, trailing newline removed.
    Expected<std::string> readString(const std::filesystem::path& path) const;
    // Reads an unsigned decimal attribute ("  512\n" → 512).
    Expected<std::uint64_t> readU64(const std::filesystem::path& path) const;
    // Like the above but empty when the file is absent or unreadable, for optional attributes.
    std::optional<std::string> tryString(const std::filesystem::path& path) const;
    std::optional<std::uint64_t> tryU64(const std::filesystem::path& path) const;
    // Names of the entries of a directory, sorted; empty when it does not exist.
    std::vector<std::string> list(const std::filesystem::path& dir) const;

private:
    bool m_live;
    std::filesystem::path m_sys;
    std::filesystem::path m_proc;
    std::filesystem::path m_run;
};

} // namespace ssdk
