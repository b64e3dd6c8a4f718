#pragma once
// Private directories: where the root helper and ssdkeeper-cached keep their sockets and state
// (StateStore, core/base/state_store.h, is built on them).
// A private directory is a real directory (not a symbolic link) owned by the process's
// effective uid with no group or other permission bits, reached from "/" through no symbolic
// link and only through directories that root or that uid owns and nobody else can write to
// (a sticky directory such as /tmp excepted). Nobody else can then swap, replace or reach
// what is inside it. The checks do not depend on the umask.

#include <filesystem>

#include "core/base/error.h"
#include "core/base/unique_fd.h"

namespace ssdk {

// PermissionDenied (with the reason) unless dir is a private directory now; NotFound when
// it does not exist.
Expected<void> checkPrivateDirectory(const std::filesystem::path& dir);

// Creates dir (and missing parents) with mode 0700 when missing, takes away the group and
// other read/execute bits of an existing one that only has those (directories made by older
// versions under umask 022), then checks it as above. An existing directory of another owner,
// one writable by group or others, or a symbolic link is refused, never changed.
Expected<void> ensurePrivateDirectory(const std::filesystem::path& dir);

// ensurePrivateDirectory, keeping the directory open: a descriptor (O_RDONLY|O_DIRECTORY) of
// the directory that was checked, for openat() and friends, so a path swapped afterwards
// changes nothing.
Expected<UniqueFd> openPrivateDirectory(const std::filesystem::path& dir);

} // namespace ssdk
