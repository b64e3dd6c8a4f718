#pragma once

#include <string>
#include <string_view>
#include <sys/types.h>

#include "core/base/error.h"
#include "core/base/process_runner.h"

namespace ssdk::helper {

// Who asked for the helper. Under pkexec the caller is PKEXEC_UID and the client process is
// our parent (pkexec execs the helper in place); run directly, it is our own uid and parent.
struct Caller {
    uid_t uid = 0;
    pid_t pid = 0;
    bool viaPkexec = false;
};

Caller detectCaller();

// Decides whether the caller may run a verb's polkit action.
class Authorizer {
public:
    virtual ~Authorizer() = default;
    virtual Expected<void> authorize(const std::string& action) = 0;
};

// Root may do anything. Anyone else is checked per action with polkit's `pkcheck`, which may
// ask the user for a password through their session's authentication agent. pkcheck exit
// codes: 0 authorized; 1 not authorized, 2 no agent could ask, 3 dialog dismissed (all
// PermissionDenied).
class PolkitAuthorizer final : public Authorizer {
public:
    PolkitAuthorizer(Caller caller, ProcessRunner& runner);
    Expected<void> authorize(const std::string& action) override;

private:
    Caller m_caller;
    ProcessRunner& m_runner;
};

// The process start time polkit uses to tell a process from a later one with the same pid:
// field 22 of /proc/PID/stat, in clock ticks since boot.
Expected<std::string> processStartTime(pid_t pid);
// Field 22 of one /proc/PID/stat line.
Expected<std::string> parseStartTime(std::string_view stat);

} // namespace ssdk::helper
