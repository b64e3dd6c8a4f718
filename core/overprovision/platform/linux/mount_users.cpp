#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/overprovision/mounts.h"

namespace ssdk::overprovision {

namespace {

// A /proc file of a process that may exit meanwhile: what could be read.
std::string readProcFile(const std::filesystem::path& path) {
    std::string text;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return text;
    }
    char buffer[8192];
    ssize_t n = 0;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) {
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

bool onDevice(const std::filesystem::path& link, dev_t device) {
    struct stat info {};
    return ::stat(link.c_str(), &info) == 0 && info.st_dev == device;
}

} // namespace

std::vector<std::string> findMountUsers(const std::filesystem::path& procRoot, std::uint32_t major,
                                        std::uint32_t minor) {
    const dev_t device = ::makedev(major, minor);
    const std::string self = std::to_string(::getpid());
    std::vector<std::string> users;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(procRoot, ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos ||
            pid == self) {
            continue;
        }
        bool uses = onDevice(entry.path() / "cwd", device) ||
                    onDevice(entry.path() / "root", device) ||
                    onDevice(entry.path() / "exe", device) ||
                    mapsUseDevice(readProcFile(entry.path() / "maps"), major, minor);
        std::error_code fdError;
        for (const auto& fd : std::filesystem::directory_iterator(entry.path() / "fd", fdError)) {
            if (uses) {
                break;
            }
            uses = onDevice(fd.path(), device);
        }
        if (uses) {
            std::string command = readProcFile(entry.path() / "comm");
            while (!command.empty() && command.back() == '\n') {
                command.pop_back();
            }
            users.push_back(pid + " (" + command + ")");
        }
    }
    return users;
}

std::vector<std::string> findMountUsers(const std::filesystem::path& procRoot,
                                        const std::string& blockDevice) {
    struct stat info {};
    if (::stat(blockDevice.c_str(), &info) != 0 || !S_ISBLK(info.st_mode)) {
        return {};
    }
    return findMountUsers(procRoot, ::major(info.st_rdev), ::minor(info.st_rdev));
}

bool mayResizeExtOnline() {
    constexpr unsigned kCapSysResource = 24;
    const std::string status = readProcFile("/proc/self/status");
    const auto at = status.find("CapEff:");
    if (at == std::string::npos) {
        return false;
    }
    const auto caps = std::strtoull(status.c_str() + at + 7, nullptr, 16);
    return ((caps >> kCapSysResource) & 1U) != 0;
}

} // namespace ssdk::overprovision
