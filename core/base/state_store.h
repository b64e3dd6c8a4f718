#pragma once
// StateStore: a directory of small state files (journals, locks, backups) that only its owner
// can change. The privileged helper keeps its state in /var/lib/ssdkeeper/<area> (root, 0700)
// and never in a directory the calling user can write: whatever it reads there it wrote itself.
//
// Every access goes through the directory's descriptor, opened once without following links,
// so a path swapped afterwards changes nothing; names are plain file names checked by
// validName(); files are regular files, read with a size limit and written atomically.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/unique_fd.h"

namespace ssdk {

// Where the privileged helper keeps its state.
inline constexpr std::string_view kPrivilegedStateRoot = "/var/lib/ssdkeeper";

class StateStore {
public:
    // The largest state file read back (journals and table backups are a few KiB).
    static constexpr std::size_t kMaxFileBytes = std::size_t{1} << 20;

    // Opens `directory` (absolute, no ".."), creating it and its missing parents with mode
    // 0700: a private directory as core/base/private_dir.h defines it (reached through no
    // link, only through directories root or the effective user owns and nobody else may
    // write, itself the effective user's with no group or other access).
    static Expected<StateStore> open(const std::filesystem::path& directory);

    const std::filesystem::path& path() const { return m_path; }
    // The path of a file in the store, for messages and for tools that take a path.
    std::filesystem::path pathOf(std::string_view name) const { return m_path / name; }

    // A plain file name a store accepts: 1–128 of [A-Za-z0-9_.-], not starting with '.'.
    static bool validName(std::string_view name);

    // The content of `name`; nothing when there is no such file. A link, a FIFO, a device or
    // anything but a regular file is refused, and so is a file over maxBytes.
    Expected<std::optional<std::string>> read(std::string_view name,
                                              std::size_t maxBytes = kMaxFileBytes) const;
    // Replaces `name` atomically with `text`, mode 0600.
    Expected<void> write(std::string_view name, std::string_view text) const;
    // Whether `name` exists (as anything: a planted link counts, so it is never written over
    // by a caller that tests first).
    Expected<bool> exists(std::string_view name) const;
    // Removes `name` when present.
    Expected<void> remove(std::string_view name) const;
    // The names in the store, sorted.
    Expected<std::vector<std::string>> list() const;

    // Takes the exclusive lock `name` (a 0600 file created when missing) without waiting: Busy
    // when another process holds it. The kernel releases it when the descriptor is closed or
    // the process dies.
    Expected<UniqueFd> lock(std::string_view name) const;
    // Whether another process holds the lock `name` right now.
    Expected<bool> isLocked(std::string_view name) const;

private:
    StateStore(std::filesystem::path path, std::shared_ptr<const UniqueFd> directory)
        : m_path(std::move(path))
        , m_directory(std::move(directory)) {}
    Expected<void> checkName(std::string_view name) const;
    int fd() const { return m_directory->get(); }

    std::filesystem::path m_path;
    std::shared_ptr<const UniqueFd> m_directory; // shared: stores are cheap to copy
};

} // namespace ssdk
