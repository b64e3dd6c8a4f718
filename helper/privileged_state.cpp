#include "helper/privileged_state.h"

#include <cstdlib>

#include "core/base/state_store.h"

namespace ssdk::helper {

std::filesystem::path privilegedStateRoot(const Caller& caller) {
    if (!caller.viaPkexec && caller.uid == 0) {
        if (const char* dir = std::getenv("SSDK_PRIVILEGED_STATE_DIR");
            dir != nullptr && dir[0] == '/') {
            return dir;
        }
    }
    return std::filesystem::path(kPrivilegedStateRoot);
}

} // namespace ssdk::helper
