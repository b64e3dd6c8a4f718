#pragma once
// Lab drives for maintenance tests: a gpt-ext4 or empty lab drive in a scratch state
// directory, its partition mounted where needed, and random data written through files.

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <unistd.h>

#include "core/device/discovery.h"
#include "core/lab/lab.h"
#include "tests/integration/lab/lab_scratch.h"

namespace ssdk::test {

// Overwrites the whole block device node with random bytes from seed, 1 MiB at a time, and
// syncs: old data that no filesystem maps. Returns the node's size.
inline std::uint64_t fillWithRandomBytes(const std::string& node, std::uint64_t seed) {
    const int fd = ::open(node.c_str(), O_WRONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const auto size = static_cast<std::uint64_t>(::lseek(fd, 0, SEEK_END));
    std::mt19937_64 generator(seed);
    std::vector<std::uint64_t> chunk((1 << 20) / sizeof(std::uint64_t));
    for (std::uint64_t at = 0; at < size; at += 1 << 20) {
        std::generate(chunk.begin(), chunk.end(), generator);
        const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(1 << 20, size - at));
        REQUIRE(::pwrite(fd, chunk.data(), length, static_cast<off_t>(at)) ==
                static_cast<ssize_t>(length));
    }
    REQUIRE(::fsync(fd) == 0);
    ::close(fd);
    return size;
}

// Like ScratchState, but under its own prefix and sweeping only leftovers of processes that
// are gone: several checkouts (and ctest -j) run integration tests at the same time, and a
// sweep of every scratch loop device detaches the drives of tests still running.
class MaintenanceScratch {
public:
    static constexpr std::string_view kPrefix = "/tmp/ssdk-maint-itest-";

    MaintenanceScratch() {
        static std::atomic<int> counter{0};
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator("/tmp", ec)) {
            const std::string path = entry.path().string();
            if (!path.starts_with(kPrefix)) {
                continue;
            }
            const std::string rest = path.substr(kPrefix.size());
            const int pid = std::atoi(rest.c_str());
            if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) {
                detachLoopsUnder(path + "/");
                std::filesystem::remove_all(entry.path(), ec);
            }
        }
        m_dir = std::string(kPrefix) + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        std::filesystem::create_directories(m_dir);
        ::setenv("XDG_STATE_HOME", m_dir.c_str(), 1);
        // The helper's own journals (root-only /var/lib/ssdkeeper on a real system).
        ::setenv("SSDK_PRIVILEGED_STATE_DIR", privilegedDir().c_str(), 1);
    }
    ~MaintenanceScratch() {
        detachLoopsUnder(m_dir.string() + "/");
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        ::unsetenv("XDG_STATE_HOME");
        ::unsetenv("SSDK_PRIVILEGED_STATE_DIR");
    }
    MaintenanceScratch(const MaintenanceScratch&) = delete;
    MaintenanceScratch& operator=(const MaintenanceScratch&) = delete;

    const std::filesystem::path& dir() const { return m_dir; }
    // Where the helper run by this test keeps its journals: $SSDK_PRIVILEGED_STATE_DIR.
    std::filesystem::path privilegedDir() const { return m_dir / "privileged"; }

private:
    std::filesystem::path m_dir;
};

inline lab::LabDrive makeLabDrive(const std::string& name, Bytes size, const std::string& layout) {
    SystemProcessRunner runner;
    lab::LabManager manager(lab::userStateDirectory(), SysfsRoot(), runner);
    return createLabDrive(manager, name, size, layout);
}

// Writes `files` files of `bytes` random bytes each under dir and syncs them.
inline void writeRandomFiles(const std::filesystem::path& dir, int files, std::size_t bytes) {
    std::mt19937_64 generator(12345);
    for (int i = 0; i < files; ++i) {
        std::ofstream out(dir / ("data-" + std::to_string(i) + ".bin"), std::ios::binary);
        for (std::size_t written = 0; written < bytes; written += 8) {
            const std::uint64_t value = generator();
            out.write(reinterpret_cast<const char*>(&value), 8);
        }
    }
    SystemProcessRunner runner;
    (void)runner.run({.argv = {"sync"}});
}

inline bool haveProgram(const std::string& name) {
    return !findExecutable(name).empty();
}

} // namespace ssdk::test
