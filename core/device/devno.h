#pragma once
// Device numbers as text. Each OS implements this under platform/<os>/ (Linux: glibc's
// major()/minor(), which know the kernel's split of the 64-bit dev_t).

#include <cstdint>
#include <string>

namespace ssdk::device {

// "MAJ:MIN" in decimal ("259:0"), as sysfs (/sys/dev/block/MAJ:MIN, uevent's MAJOR/MINOR),
// udev's database (b259:0) and /proc/self/mountinfo spell a device, for a device number
// as stat() gives it: st_rdev of a device node, or st_dev of a file on the device.
std::string devnoText(std::uint64_t deviceNumber);

} // namespace ssdk::device
