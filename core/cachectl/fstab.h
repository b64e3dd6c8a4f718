#pragma once
// /etc/fstab and systemd names for "at next boot" (docs/ram-cache.md): the one line that mounts
// a cached filesystem is rewritten to mount the cache device and to require the unit that
// stacks the cache (x-systemd.requires=), shown to the user as a diff first, and later put back
// exactly as it was. Pure text functions, and the file's reading and writing.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace ssdk::cachectl {

// One mount line of fstab(5). Fields are as written (octal escapes such as \040 kept);
// mountPoint is unescaped. `line` is the 0-based line number in the file.
struct FstabEntry {
    std::size_t line = 0;
    std::string spec;       // UUID=…, LABEL=…, PARTUUID=…, /dev/…
    std::string mountPoint; // unescaped: "/mnt/lab data"
    std::string type;
    std::string options;
};

std::vector<FstabEntry> parseFstab(std::string_view text);
// fstab's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash) undone.
std::string unescapeFstab(std::string_view field);

// The change of one line of a file, as the user sees it before it is written.
struct FstabChange {
    std::string path; // "/etc/fstab"
    std::size_t line = 0;
    std::string before;
    std::string after;
    // A unified diff of the one line (with its line number), as `diff -u` prints it.
    std::string diff() const;
};

// The line `entry` of `text` made to mount `cachedDevice` and to need `unit` (its options get
// x-systemd.requires=UNIT; every other field and the spacing between fields stay as written).
Expected<FstabChange> planFstabChange(std::string_view text, const std::string& path,
                                      const FstabEntry& entry, const std::string& cachedDevice,
                                      const std::string& unit);
// `text` with the one line that reads `from` replaced by `to`; fails when no line or more than
// one line reads `from` (someone edited the file since): nothing is guessed.
Expected<std::string> replaceFstabLine(std::string_view text, const std::string& from,
                                       const std::string& to);

// systemd-escape --path: "/dev/disk/by-partuuid/1a-2" → "dev-disk-by\x2dpartuuid-1a\x2d2".
std::string systemdEscapePath(std::string_view path);
// The boot unit instance stacking the cache over `originPath` ("ssdkeeper-cache@….service").
std::string bootUnitName(const std::string& originPath);

// Whether `text` holds `line` as one whole line. Pure.
bool hasLine(std::string_view text, std::string_view line);

// The whole file.
Expected<std::string> readFstabFile(const std::filesystem::path& path);
// Replaces the file through a synced temporary file (writeFileAtomically), keeping its mode
// (0644 for a new file).
Expected<void> writeFstabFile(const std::filesystem::path& path, const std::string& text);

} // namespace ssdk::cachectl
