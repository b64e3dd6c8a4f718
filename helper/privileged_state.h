#pragma once

#include <filesystem>

#include "helper/authorizer.h"

namespace ssdk::helper {

// Where the helper keeps its own state (journals, locks, partition-table backups): the
// root-only /var/lib/ssdkeeper (kPrivilegedStateRoot), never the calling user's home. Root
// running the helper directly (a root shell, the tests) may name another directory in
// $SSDK_PRIVILEGED_STATE_DIR; under pkexec the environment is never consulted.
std::filesystem::path privilegedStateRoot(const Caller& caller);

} // namespace ssdk::helper
