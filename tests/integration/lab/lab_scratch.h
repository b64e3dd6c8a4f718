#pragma once

// Test support for lab drives on real loop devices: a private state directory per test and
// cleanup that does not trust the code under test (it reads sysfs and runs umount/losetup
// itself), so a failing test leaves no mount, loop device or file behind.
#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/base/sysfs_root.h"
#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"

namespace ssdk::test {

inline constexpr std::string_view kScratchPrefix = "/tmp/ssdk-itest-";

// Unmounts the partitions of every loop device backed by a file under prefix (and the device
// itself), then detaches it.
inline void detachLoopsUnder(const std::string& prefix) {
    const SysfsRoot root;
    SystemProcessRunner runner;
    for (const auto& name : root.list("/sys/block")) {
        auto backing = root.tryString("/sys/block/" + name + "/loop/backing_file");
        if (!name.starts_with("loop") || !backing || !backing->starts_with(prefix)) {
            continue;
        }
        for (const auto& entry : root.list("/sys/block/" + name)) {
            if (entry.starts_with(name + "p")) {
                (void)runner.run({.argv = {"umount", "/dev/" + entry}});
            }
        }
        (void)runner.run({.argv = {"umount", "/dev/" + name}});
        (void)runner.run({.argv = {"losetup", "-d", "/dev/" + name}});
    }
}

// The pid in a scratch directory name "/tmp/ssdk-itest-<pid>-<n>"; 0 when there is none.
inline pid_t scratchOwner(const std::string& path) {
    const std::string rest = path.substr(kScratchPrefix.size());
    return static_cast<pid_t>(std::strtol(rest.c_str(), nullptr, 10));
}

// A fresh XDG_STATE_HOME under /tmp/ssdk-itest-<pid>-<n>, removed with whatever is still
// attached to or mounted from it. Also sweeps leftovers of earlier runs that crashed: only
// those whose process is gone, so test runs of other checkouts at the same time are left alone.
class ScratchState {
public:
    ScratchState() {
        static std::atomic<int> counter{0};
        static const bool swept = [] {
            std::error_code ec;
            for (const auto& entry : std::filesystem::directory_iterator("/tmp", ec)) {
                const std::string path = entry.path().string();
                if (!path.starts_with(kScratchPrefix)) {
                    continue;
                }
                const pid_t owner = scratchOwner(path);
                if (owner > 0 && ::kill(owner, 0) != 0 && errno == ESRCH) {
                    detachLoopsUnder(path + "/");
                    std::filesystem::remove_all(entry.path(), ec);
                }
            }
            return true;
        }();
        (void)swept;
        m_dir = std::string(kScratchPrefix) + std::to_string(::getpid()) + "-" +
                std::to_string(counter++);
        std::filesystem::create_directories(m_dir);
        ::setenv("XDG_STATE_HOME", m_dir.c_str(), 1);
        // The helper's own journals (root-only /var/lib/ssdkeeper on a real system).
        ::setenv("SSDK_PRIVILEGED_STATE_DIR", privilegedDir().c_str(), 1);
    }
    ~ScratchState() {
        detachLoopsUnder(m_dir.string() + "/");
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        ::unsetenv("XDG_STATE_HOME");
        ::unsetenv("SSDK_PRIVILEGED_STATE_DIR");
    }
    ScratchState(const ScratchState&) = delete;
    ScratchState& operator=(const ScratchState&) = delete;

    const std::filesystem::path& dir() const { return m_dir; }
    // Where the helper run by this test keeps its journals: $SSDK_PRIVILEGED_STATE_DIR.
    std::filesystem::path privilegedDir() const { return m_dir / "privileged"; }
    std::filesystem::path labDir() const { return m_dir / "ssdkeeper" / "lab"; }

private:
    std::filesystem::path m_dir;
};

// A test's scratch state directory and the current user's lab manager in it (a fixture for
// TEST_CASE_METHOD).
struct LabBench {
    const ScratchState scratch;
    SystemProcessRunner processes;
    lab::LabManager manager{lab::userStateDirectory(), SysfsRoot(), processes};
};

// Creates lab drive `name` through manager (layout "" is the lab's default); the test fails with
// the reason when it cannot.
inline lab::LabDrive createLabDrive(lab::LabManager& manager, const std::string& name, Bytes size,
                                    const std::string& layout = {}) {
    lab::LabCreateRequest request;
    request.name = name;
    request.size = size;
    if (!layout.empty()) {
        request.layout = layout;
    }
    auto drive = manager.create(request);
    INFO("creating lab drive " << name << ": "
                               << (drive ? std::string("done") : drive.error().describe()));
    REQUIRE(drive);
    return *drive;
}

// Mounts a device at a new directory inside the scratch directory, with `options` (mount -o)
// when given; unmounts on destruction (whoever mounted what is there then).
class MountGuard {
public:
    MountGuard(const std::string& device, const std::filesystem::path& mountPoint,
               const std::string& options = {})
        : m_mountPoint(mountPoint) {
        std::filesystem::create_directories(mountPoint);
        std::vector<std::string> argv{"mount"};
        if (!options.empty()) {
            argv.insert(argv.end(), {"-o", options});
        }
        argv.insert(argv.end(), {device, mountPoint.string()});
        SystemProcessRunner runner;
        auto mounted = runner.run({.argv = std::move(argv)});
        REQUIRE(mounted);
        INFO(mounted->standardError);
        REQUIRE(mounted->exitCode == 0);
        m_mounted = true;
    }
    ~MountGuard() { unmount(); }
    MountGuard(const MountGuard&) = delete;
    MountGuard& operator=(const MountGuard&) = delete;

    void unmount() {
        if (m_mounted) {
            SystemProcessRunner runner;
            (void)runner.run({.argv = {"umount", m_mountPoint.string()}});
            m_mounted = false;
        }
    }

private:
    std::filesystem::path m_mountPoint;
    bool m_mounted = false;
};

// "/dev/loop3" → the loop's sysfs attribute, e.g. "queue/logical_block_size".
inline std::string loopAttribute(const std::string& device, const std::string& attribute) {
    const std::string name = std::filesystem::path(device).filename().string();
    return SysfsRoot().tryString("/sys/block/" + name + "/" + attribute).value_or("");
}

inline bool loopAttached(const std::string& device) {
    return !loopAttribute(device, "loop/backing_file").empty();
}

// The filesystem type libblkid finds on a device, probing it directly (no cache).
inline std::string probeType(const std::string& device) {
    SystemProcessRunner runner;
    auto result = runner.run({.argv = {"blkid", "-p", "-o", "value", "-s", "TYPE", device}});
    REQUIRE(result);
    std::string type = result->standardOutput;
    while (!type.empty() && type.back() == '\n') {
        type.pop_back();
    }
    return type;
}

} // namespace ssdk::test
