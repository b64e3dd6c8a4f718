#pragma once
// What the replay platform (core/platform/replay/) answers for an operation it has no recording
// of and cannot do with standard C++ alone: a clear Unsupported error, never a pretend success.

#include <string>
#include <string_view>
#include <system_error>

#include "core/base/error.h"

namespace ssdk::replay {

inline Error unavailable(std::string_view what) {
    return Error(ErrorCode::Unsupported,
                 std::string(what) + " is not available on the replay platform");
}

// The same as the errno value the block-level helpers (std::expected<T, int>) fail with.
inline constexpr int kUnavailableErrno = static_cast<int>(std::errc::operation_not_supported);

} // namespace ssdk::replay
