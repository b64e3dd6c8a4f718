#pragma once
// Test processes and the helpers they start keep the helper's journals in
// /tmp/ssdk-test-privileged-<euid> instead of this machine's /var/lib/ssdkeeper, unless a test
// names its own directory (the scratch classes of the integration tests do).

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace ssdk::test {

inline void usePrivilegedStateForTests() {
    const std::string dir = "/tmp/ssdk-test-privileged-" + std::to_string(::geteuid());
    ::setenv("SSDK_PRIVILEGED_STATE_DIR", dir.c_str(), 0);
}

} // namespace ssdk::test
