#pragma once

#include <map>
#include <string>
#include <string_view>
#include <sys/types.h>

#include "core/base/error.h"
#include "core/base/process_runner.h"

namespace ssdk::helper {

// Who asked for the helper. Under pkexec the caller is PKEXEC_UID and the client process is
// our parent (pkexec execs the helper in place); run directly, it is our own uid and parent.
// startTime (field 22 of /proc/PID/stat) is read once, at start, while the parent is known to
// be the caller: every later polkit check names that process, never a later one that got the
// same pid. Empty when the parent could not be identified (it had already gone away).
struct Caller {
    uid_t uid = 0;
    pid_t pid = 0;
    std::string startTime;
    bool viaPkexec = false;
};

Caller detectCaller();

// What polkit may show in its dialog about a request ("device" → "/dev/sda"); a policy
// message names a detail as $(device). Keys and values are checked by authorizationDetail.
using AuthDetails = std::map<std::string, std::string, std::less<>>;

// Whether a detail value is fit to hand to pkcheck: printable ASCII only (no control
// characters, no bytes a dialog could misread), 1 to kMaxDetailLength bytes, no leading '-'.
// Keys are fixed by the helper: lower-case letters and '_' (never polkit's own "polkit.*").
inline constexpr std::size_t kMaxDetailLength = 128;
bool isSafeDetail(std::string_view text);

// Decides whether the caller may run a verb's polkit action.
class Authorizer {
public:
    virtual ~Authorizer() = default;
    virtual Expected<void> authorize(const std::string& action) = 0;
    // The same, with details for the dialog (unsafe ones are dropped). Authorizers that show
    // no dialog need not override it.
    virtual Expected<void> authorizeWithDetails(const std::string& action,
                                                const AuthDetails& /*details*/) {
        return authorize(action);
    }
};

// Root may do anything. Anyone else is checked per action with polkit's `pkcheck`, which may
// ask the user for a password through their session's authentication agent. pkcheck exit
// codes: 0 authorized; 1 not authorized, 2 no agent could ask, 3 dialog dismissed (all
// PermissionDenied).
// Details go to pkcheck as --detail KEY VALUE.
class PolkitAuthorizer final : public Authorizer {
public:
    PolkitAuthorizer(Caller caller, ProcessRunner& runner);
    Expected<void> authorize(const std::string& action) override;
    Expected<void> authorizeWithDetails(const std::string& action,
                                        const AuthDetails& details) override;

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
