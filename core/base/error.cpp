#include "core/base/error.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace ssdk {

namespace {

struct CodeName {
    ErrorCode code;
    std::string_view name;
};

constexpr std::array kCodeNames{
    CodeName{ErrorCode::InvalidArgument, "invalid-argument"},
    CodeName{ErrorCode::NotFound, "not-found"},
    CodeName{ErrorCode::PermissionDenied, "permission-denied"},
    CodeName{ErrorCode::Busy, "busy"},
    CodeName{ErrorCode::Unsupported, "unsupported"},
    CodeName{ErrorCode::ToolMissing, "tool-missing"},
    CodeName{ErrorCode::ProcessFailed, "process-failed"},
    CodeName{ErrorCode::Timeout, "timeout"},
    CodeName{ErrorCode::Parse, "parse"},
    CodeName{ErrorCode::Io, "io"},
    CodeName{ErrorCode::NoSpace, "no-space"},
    CodeName{ErrorCode::Cancelled, "cancelled"},
    CodeName{ErrorCode::Protocol, "protocol"},
    CodeName{ErrorCode::Internal, "internal"},
};

} // namespace

std::string_view toString(ErrorCode code) {
    for (const auto& entry : kCodeNames) {
        if (entry.code == code) {
            return entry.name;
        }
    }
    return "internal";
}

ErrorCode errorCodeFromString(std::string_view name) {
    for (const auto& entry : kCodeNames) {
        if (entry.name == name) {
            return entry.code;
        }
    }
    return ErrorCode::Internal;
}

Error::Error(ErrorCode code, std::string message)
    : m_code(code)
    , m_message(std::move(message)) {}

Error& Error::addContext(std::string what) & {
    m_context.push_back(std::move(what));
    return *this;
}

Error&& Error::addContext(std::string what) && {
    m_context.push_back(std::move(what));
    return std::move(*this);
}

std::string Error::describe() const {
    std::string text;
    for (auto it = m_context.rbegin(); it != m_context.rend(); ++it) {
        text += *it;
        text += ": ";
    }
    text += m_message;
    return text;
}

Error errnoError(int err, std::string what) {
    ErrorCode code = ErrorCode::Io;
    switch (err) {
    case ENOENT:
    case ENXIO:
    case ENODEV:
        code = ErrorCode::NotFound;
        break;
    case EACCES:
    case EPERM:
        code = ErrorCode::PermissionDenied;
        break;
    case EBUSY:
        code = ErrorCode::Busy;
        break;
    case ENOSPC:
        code = ErrorCode::NoSpace;
        break;
    case EINVAL:
        code = ErrorCode::InvalidArgument;
        break;
    case ENOTSUP:
    case ENOTTY:
        code = ErrorCode::Unsupported;
        break;
    default:
        break;
    }
    return Error(code, std::move(what) + ": " + std::strerror(err));
}

} // namespace ssdk
