#include "core/base/state_store.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iterator>

#include "core/base/atomic_file.h"
#include "core/base/platform/replay/unavailable.h"
#include "core/base/private_dir.h"

namespace ssdk {

namespace fs = std::filesystem;

// The store's files through std::filesystem on its path; locks need descriptors (the caller
// keeps a UniqueFd), which standard C++ does not have.
Expected<StateStore> StateStore::open(const fs::path& directory) {
    if (!directory.is_absolute() || std::ranges::find(directory, "..") != directory.end()) {
        return fail(ErrorCode::InvalidArgument,
                    "a state directory must be an absolute path without '..', not " +
                        directory.string());
    }
    if (auto ensured = ensurePrivateDirectory(directory); !ensured) {
        return std::unexpected(ensured.error());
    }
    return StateStore(directory.lexically_normal(), std::make_shared<const UniqueFd>());
}

Expected<std::optional<std::string>> StateStore::read(std::string_view name,
                                                      std::size_t maxBytes) const {
    if (auto checked = checkName(name); !checked) {
        return std::unexpected(checked.error());
    }
    const auto shown = pathOf(name);
    std::error_code error;
    const auto status = fs::symlink_status(shown, error);
    if (!fs::exists(status)) {
        return std::optional<std::string>();
    }
    if (fs::is_symlink(status)) {
        return fail(ErrorCode::PermissionDenied, shown.string() + " is a link; refusing it");
    }
    if (!fs::is_regular_file(status)) {
        return fail(ErrorCode::PermissionDenied,
                    shown.string() + " is not a regular file; refusing it");
    }
    if (fs::file_size(shown, error) > maxBytes) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("{} is larger than {} bytes; refusing to read it", shown.string(),
                                maxBytes));
    }
    std::ifstream in(shown, std::ios::binary);
    std::string text(std::istreambuf_iterator<char>(in), {});
    if (in.bad()) {
        return fail(ErrorCode::Io, "reading " + shown.string());
    }
    return std::optional<std::string>(std::move(text));
}

Expected<void> StateStore::write(std::string_view name, std::string_view text) const {
    if (auto checked = checkName(name); !checked) {
        return checked;
    }
    return writeFileAtomically(pathOf(name), text, 0600);
}

Expected<bool> StateStore::exists(std::string_view name) const {
    if (auto checked = checkName(name); !checked) {
        return std::unexpected(checked.error());
    }
    std::error_code error;
    return fs::exists(fs::symlink_status(pathOf(name), error));
}

Expected<void> StateStore::remove(std::string_view name) const {
    if (auto checked = checkName(name); !checked) {
        return checked;
    }
    std::error_code error;
    if (!fs::remove(pathOf(name), error) && error) {
        return fail(ErrorCode::Io, "removing " + pathOf(name).string() + ": " + error.message());
    }
    return {};
}

Expected<std::vector<std::string>> StateStore::list() const {
    std::error_code error;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(m_path, error)) {
        if (auto name = entry.path().filename().string(); validName(name)) {
            names.push_back(std::move(name));
        }
    }
    if (error) {
        return fail(ErrorCode::Io, "listing " + m_path.string() + ": " + error.message());
    }
    std::ranges::sort(names);
    return names;
}

Expected<UniqueFd> StateStore::lock(std::string_view name) const {
    return std::unexpected(replay::unavailable("the lock " + pathOf(name).string()));
}

Expected<bool> StateStore::isLocked(std::string_view name) const {
    return std::unexpected(replay::unavailable("the lock " + pathOf(name).string()));
}

} // namespace ssdk
