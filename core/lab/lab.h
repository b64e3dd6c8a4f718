#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/process_runner.h"
#include "core/base/sysfs_root.h"

namespace ssdk::lab {

// Lab drives: sparse files under <state dir>/ssdkeeper/lab/<name>.img attached as loop
// devices. They are how people and tests try destructive features without risk.
// A loop device counts as a lab drive exactly when its backing file matches that pattern
// (device::labNameFromBackingFile).

// The user's state directory: $XDG_STATE_HOME, else $HOME/.local/state.
std::filesystem::path userStateDirectory();
// <stateDir>/ssdkeeper/lab
std::filesystem::path labDirectory(const std::filesystem::path& stateDir);

// Names are 1–32 characters of [A-Za-z0-9_-], starting with a letter or digit.
Expected<void> validateLabName(std::string_view name);

struct LabCreateRequest {
    std::string name = "lab";
    Bytes size = Bytes::gib(8);
    std::uint32_t logicalSectorSize = 512; // 512 or 4096
    // "empty": nothing on it. "gpt-ext4": a GPT with one ext4 partition (sfdisk, mkfs.ext4).
    std::string layout = "empty";
    // When the helper creates an image for a user, the image and its directories belong
    // to that user, not to root.
    std::optional<std::uint32_t> ownerUid;
    std::optional<std::uint32_t> ownerGid;
};

// The user a root process manages lab drives for (the helper started through pkexec). Files
// are then created, found and removed with that user's file access rights (setfsuid), so a
// link planted in their directory cannot reach a file they could not touch themselves, and
// what is created belongs to them.
struct LabOwner {
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
};

struct LabDrive {
    std::string name;
    std::filesystem::path image;
    std::string devicePath; // "/dev/loop3"; empty when the image is not attached
    Bytes size;             // the image's apparent size
    Bytes allocated;        // blocks the sparse image really occupies on the host
};

// Its JSON (the lab.create result and a `lab list` entry): core/lab/verbs.h.

// Creates, lists and destroys lab drives in one state directory. create/destroy need root
// (loop-control); list does not. Every failure leaves nothing behind: a half-made image is
// removed, a loop device attached by a failed create is detached.
class LabManager {
public:
    // owner: see LabOwner; create() uses the request's ownerUid/ownerGid instead when set.
    LabManager(std::filesystem::path stateDir, SysfsRoot root, ProcessRunner& runner,
               std::optional<LabOwner> owner = std::nullopt);

    Expected<LabDrive> create(const LabCreateRequest& request);
    // name, image path or /dev/loopN. Refuses when the device is mounted or has holders.
    Expected<void> destroy(std::string_view nameOrDevice);
    Expected<std::vector<LabDrive>> list() const;

    // The largest image create() accepts: the free space of the state directory's
    // filesystem (a sparse image must be able to fill up) capped at 4 TiB.
    Expected<Bytes> maximumSize() const;

private:
    std::filesystem::path m_labDir;
    SysfsRoot m_root;
    ProcessRunner& m_runner;
    std::optional<LabOwner> m_owner;
};

} // namespace ssdk::lab
