#include "core/base/atomic_file.h"

#include <fstream>
#include <random>
#include <string>

#include "core/base/platform/replay/unavailable.h"

namespace ssdk {

namespace fs = std::filesystem;

// Standard C++ has no fsync and no directory descriptors: the content is written to a fresh
// temporary name next to the file and renamed over it, so readers see the old or the new text.
Expected<void> writeFileAtomically(const fs::path& file, std::string_view text,
                                   std::uint32_t mode) {
    static thread_local std::mt19937_64 random(std::random_device{}());
    std::error_code error;
    const auto directory = file.has_parent_path() ? file.parent_path() : ".";
    if (!fs::is_directory(directory, error)) {
        return fail(ErrorCode::NotFound, "opening the directory of " + file.string());
    }
    fs::path temporary;
    for (int attempt = 0; attempt < 16 && temporary.empty(); ++attempt) {
        const auto candidate = directory / ("." + file.filename().string() + "." +
                                            std::to_string(random()) + ".ssdkeeper.tmp");
        if (!fs::exists(fs::symlink_status(candidate, error))) {
            temporary = candidate;
        }
    }
    if (temporary.empty()) {
        return fail(ErrorCode::Io, "no free temporary name next to " + file.string());
    }
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out.flush()) {
            fs::remove(temporary, error);
            return fail(ErrorCode::Io, "writing " + file.string());
        }
    }
    fs::permissions(temporary, static_cast<fs::perms>(mode) & fs::perms::mask, error);
    if (error) {
        fs::remove(temporary, error);
        return fail(ErrorCode::Io, "setting the mode of " + file.string());
    }
    fs::rename(temporary, file, error);
    if (error) {
        const auto why = error.message();
        fs::remove(temporary, error);
        return fail(ErrorCode::Io, "renaming a temporary file to " + file.string() + ": " + why);
    }
    return {};
}

Expected<void> writeFileAtomicallyAt(int /*directoryFd*/, std::string_view /*name*/,
                                     std::string_view /*text*/, std::uint32_t /*mode*/,
                                     const fs::path& shownPath) {
    return std::unexpected(
        replay::unavailable("writing through a directory descriptor (" + shownPath.string() + ")"));
}

} // namespace ssdk
