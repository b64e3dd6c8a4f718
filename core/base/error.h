#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace ssdk {

// What went wrong, coarse enough for callers to branch on. The message says the rest.
enum class ErrorCode {
    InvalidArgument,  // the caller asked for something malformed or out of range
    NotFound,         // a device, file or tool does not exist
    PermissionDenied, // needs privileges the caller does not have, or authorization was refused
    Busy,             // in use: mounted, held open, has holders
    Unsupported,      // the device, kernel or platform cannot do this
    ToolMissing,      // an external program the feature needs is not installed
    ProcessFailed,    // an external program ran and failed
    Timeout,          // an operation did not finish in its time limit
    Parse,            // input that should have a format did not
    Io,               // a system call on a file or device failed
    NoSpace,          // not enough room on the target
    Cancelled,        // the user or the caller stopped it
    Protocol,         // the helper and its client disagree on the wire format
    Internal,         // a bug: a state that should not be reachable
};

std::string_view toString(ErrorCode code);
// The inverse of toString; unknown names map to Internal.
ErrorCode errorCodeFromString(std::string_view name);

// An error with a code, a message and a chain of context added while it propagated
// ("reading /sys/block/sda/size" → "discovering sda"). context() lists innermost first.
class Error {
public:
    Error(ErrorCode code, std::string message);

    ErrorCode code() const { return m_code; }
    const std::string& message() const { return m_message; }
    const std::vector<std::string>& context() const { return m_context; }

    Error& addContext(std::string what) &;
    Error&& addContext(std::string what) &&;

    // "outermost: …: innermost: message"
    std::string describe() const;

private:
    ErrorCode m_code;
    std::string m_message;
    std::vector<std::string> m_context;
};

template <typename T> using Expected = std::expected<T, Error>;

// Shorthand for returning an error from a function that returns Expected<T>.
inline std::unexpected<Error> fail(ErrorCode code, std::string message) {
    return std::unexpected(Error(code, std::move(message)));
}

// An Io/NotFound/PermissionDenied error from an errno value, naming what was attempted.
Error errnoError(int err, std::string what);
inline std::unexpected<Error> failErrno(int err, std::string what) {
    return std::unexpected(errnoError(err, std::move(what)));
}

// The error of a failed result, returned from a function with another result type.
template <typename T> std::unexpected<Error> failed(const Expected<T>& result) {
    return std::unexpected(result.error());
}

// Adds context to the error of an Expected, leaving a value untouched.
template <typename T> Expected<T> withContext(Expected<T> result, std::string what) {
    if (!result) {
        result.error().addContext(std::move(what));
    }
    return result;
}

} // namespace ssdk
