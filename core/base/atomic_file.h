#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "core/base/error.h"

namespace ssdk {

// Writes text to `file` through a new temporary file next to it (created exclusively with a
// fresh random name, never following a link, given exactly `mode`), fsync, rename over the
// target and a sync of the directory: a crash leaves the old or the new content, never a torn
// one, and nothing planted in the directory (a link where the temporary or the target would be)
// is followed or overwritten. The directory itself is opened as given: callers writing for
// another user must make sure nobody else can change it (see core/base/state_store.h).
Expected<void> writeFileAtomically(const std::filesystem::path& file, std::string_view text,
                                   std::uint32_t mode = 0644);

// The same inside the directory open as `directoryFd`; `name` is a plain file name (no '/').
// `shownPath` names the file in errors.
Expected<void> writeFileAtomicallyAt(int directoryFd, std::string_view name, std::string_view text,
                                     std::uint32_t mode, const std::filesystem::path& shownPath);

} // namespace ssdk
