#include "core/lab/platform/linux/fs_identity.h"

#include <string>
#include <sys/fsuid.h>
#include <unistd.h>

namespace ssdk::lab {

namespace {

// setfsuid/setfsgid report no errors; asking for an impossible id returns the current one.
constexpr auto kQuery = static_cast<uid_t>(-1);

} // namespace

FsIdentity::~FsIdentity() {
    if (m_switched) {
        ::setfsuid(::geteuid());
        ::setfsgid(::getegid());
    }
}

Expected<void> FsIdentity::assume(std::uint32_t uid, std::uint32_t gid) {
    if (m_switched || ::geteuid() != 0 || uid == 0) {
        return {};
    }
    ::setfsgid(gid);
    ::setfsuid(uid);
    m_switched = true;
    if (static_cast<std::uint32_t>(::setfsuid(kQuery)) != uid ||
        static_cast<std::uint32_t>(::setfsgid(static_cast<gid_t>(kQuery))) != gid) {
        return fail(ErrorCode::Internal,
                    "could not take the file access rights of uid " + std::to_string(uid));
    }
    return {};
}

} // namespace ssdk::lab
