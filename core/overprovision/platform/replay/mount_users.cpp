#include <fstream>
#include <iterator>

#include "core/overprovision/mounts.h"

namespace ssdk::overprovision {

// A recorded procRoot holds the processes' maps and comm; what their descriptors, working
// directories and executables are on needs stat(), which standard C++ does not have.
std::vector<std::string> findMountUsers(const std::filesystem::path& procRoot, std::uint32_t major,
                                        std::uint32_t minor) {
    const auto read = [](const std::filesystem::path& file) {
        std::ifstream in(file);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    std::vector<std::string> users;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(procRoot, error)) {
        const auto pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") == std::string::npos &&
            mapsUseDevice(read(entry.path() / "maps"), major, minor)) {
            auto command = read(entry.path() / "comm");
            while (command.ends_with('\n')) {
                command.pop_back();
            }
            users.push_back(pid + " (" + command + ")");
        }
    }
    return users;
}

// The replay platform has no block device nodes, and this finds nothing for what is not one.
std::vector<std::string> findMountUsers(const std::filesystem::path& /*procRoot*/,
                                        const std::string& /*blockDevice*/) {
    return {};
}

// Nobody may resize a mounted filesystem here.
bool mayResizeExtOnline() {
    return false;
}

} // namespace ssdk::overprovision
