#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ssdk::device {

// One line of /proc/<pid>/mountinfo (see proc(5)).
struct MountInfoEntry {
    std::string devno;        // "259:2"; btrfs and other virtual filesystems use anonymous 0:N
    std::string root;         // the directory of the filesystem mounted here ("/" usually)
    std::string mountPoint;   // unescaped ("\040" → " ")
    std::string mountOptions; // per-mount: "rw,relatime"
    std::string fsType;       // "ext4"
    std::string source;       // "/dev/nvme0n1p2"
    std::string superOptions; // per-superblock: "rw,discard"
};

// Parses mountinfo text. Malformed lines are skipped: the kernel writes this file, so a bad
// line means a recording was cut, and the rest is still worth reading.
std::vector<MountInfoEntry> parseMountInfo(std::string_view text);

// The options to mount a filesystem again as `entry` shows it mounted: the per-mount options
// followed by the superblock options that are not already there ("rw"/"ro" once, from the
// per-mount options; "seclabel", which the kernel adds by itself, dropped). Pure.
std::string remountOptions(const MountInfoEntry& entry);

// Undoes the kernel's octal escapes of space, tab, newline and backslash in mountinfo fields.
std::string unescapeMountField(std::string_view field);

} // namespace ssdk::device
