#pragma once

#include <filesystem>
#include <string_view>
#include <sys/types.h>

#include "core/base/error.h"

namespace ssdk {

// Writes text to `file` through a temporary file next to it (FILE.ssdkeeper.tmp, given exactly
// `mode`), fsync, rename and a sync of the directory, so a crash leaves the old or the new content,
// never a torn one.
Expected<void> writeFileAtomically(const std::filesystem::path& file, std::string_view text,
                                   mode_t mode = 0644);

} // namespace ssdk
