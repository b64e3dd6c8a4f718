#include "core/lab/platform/linux/fs_identity.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::lab {

// The replay platform has no users to take the file access rights of.
FsIdentity::~FsIdentity() = default;

Expected<void> FsIdentity::assume(std::uint32_t uid, std::uint32_t /*gid*/) {
    if (uid == 0) {
        return {};
    }
    return std::unexpected(
        replay::unavailable("the file access rights of uid " + std::to_string(uid)));
}

} // namespace ssdk::lab
