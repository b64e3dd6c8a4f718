#pragma once

#include <cstdint>

#include "core/base/error.h"

namespace ssdk::lab {

// While alive, this thread accesses files as another user (setfsuid/setfsgid): permission
// checks use that user's ids and new files belong to them. The kernel drops the file
// capabilities (CAP_DAC_OVERRIDE, CAP_CHOWN, …) meanwhile. Supplementary groups stay the
// process's. Only a root process can switch; for anyone else, or uid 0, it does nothing.
class FsIdentity {
public:
    FsIdentity() = default;
    ~FsIdentity();
    FsIdentity(const FsIdentity&) = delete;
    FsIdentity& operator=(const FsIdentity&) = delete;

    // Switches to uid/gid until destruction. Fails (Internal) if the kernel did not switch.
    Expected<void> assume(std::uint32_t uid, std::uint32_t gid);

private:
    bool m_switched = false;
};

} // namespace ssdk::lab
