#include "core/base/sysfs_root.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>

namespace ssdk {

SysfsRoot::SysfsRoot()
    : m_live(true)
    , m_sys("/sys")
    , m_proc("/proc")
    , m_run("/run") {}

SysfsRoot::SysfsRoot(std::filesystem::path recordedRoot)
    : m_live(false)
    , m_sys(recordedRoot / "sys")
    , m_proc(recordedRoot / "proc")
    , m_run(recordedRoot / "run") {}

Expected<std::string> SysfsRoot::readString(const std::filesystem::path& path) const {
    std::ifstream in(path);
    if (!in) {
        return failErrno(errno != 0 ? errno : ENOENT, "reading " + path.string());
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    return text;
}

Expected<std::uint64_t> SysfsRoot::readU64(const std::filesystem::path& path) const {
    auto text = readString(path);
    if (!text) {
        return std::unexpected(text.error());
    }
    std::string_view view = *text;
    while (!view.empty() && view.front() == ' ') {
        view.remove_prefix(1);
    }
    std::uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (ec != std::errc{} || ptr != view.data() + view.size()) {
        return fail(ErrorCode::Parse, path.string() + ": '" + *text + "' is not a number");
    }
    return value;
}

std::optional<std::string> SysfsRoot::tryString(const std::filesystem::path& path) const {
    auto text = readString(path);
    return text ? std::optional(std::move(*text)) : std::nullopt;
}

std::optional<std::uint64_t> SysfsRoot::tryU64(const std::filesystem::path& path) const {
    auto value = readU64(path);
    return value ? std::optional(*value) : std::nullopt;
}

std::vector<std::string> SysfsRoot::list(const std::filesystem::path& dir) const {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        names.push_back(entry.path().filename().string());
    }
    std::ranges::sort(names);
    return names;
}

} // namespace ssdk
