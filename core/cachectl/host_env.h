#pragma once
// What the cache backends need from the machine: kernel files (/sys, /proc, /dev), programs,
// privileges and the kernel version — behind one object so unit tests can point it at a
// scratch tree and a recorded ProcessRunner.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/process_runner.h"
#include "core/device/mountinfo.h"

namespace ssdk::cachectl {

struct HostEnv {
    // Every absolute path the backends touch is resolved under root ("/" on the live system).
    std::filesystem::path root = "/";
    ProcessRunner* runner = nullptr;
    bool isRoot = false;
    std::string kernelRelease; // "6.1.0-18-amd64"
    std::string searchPath;    // like $PATH
    std::function<void(std::chrono::milliseconds)> sleep;
    // Where ssdkeeper-cached is looked for, in order (the engine backend).
    std::vector<std::filesystem::path> daemonCandidates;

    // The live machine: euid, uname, $PATH plus the sbin directories.
    static HostEnv live(ProcessRunner& runner);

    std::filesystem::path resolve(const std::filesystem::path& absolute) const;
    bool exists(const std::filesystem::path& absolute) const;
    Expected<std::string> read(const std::filesystem::path& absolute) const; // trailing \n cut
    std::optional<std::uint64_t> readU64(const std::filesystem::path& absolute) const;
    Expected<void> write(const std::filesystem::path& absolute, const std::string& value) const;
    std::vector<std::string> list(const std::filesystem::path& absolute) const;

    // The program's path when installed (found in searchPath under root), else empty.
    std::optional<std::filesystem::path> findTool(const std::string& name) const;
    Expected<ProcessResult> run(std::vector<std::string> argv,
                                std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
    // Runs and fails (ProcessFailed, with stderr) on a non-zero exit.
    Expected<ProcessResult>
    runChecked(std::vector<std::string> argv,
               std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;

    // Empty when the kernel module is built in, loaded, or loadable (`modprobe -n`);
    // otherwise why not, e.g. "kernel module nbd is not available on kernel 6.1.0".
    std::optional<std::string> moduleProblem(const std::string& module) const;
    // The same for several, said once: "kernel modules dm_mod and dm_cache are not available
    // on kernel 6.1.0"; a module modprobe refuses for another reason is named with its words.
    std::optional<std::string> modulesProblem(const std::vector<std::string>& modules) const;
    // Whether a module (by its /sys/module name) is built in or loaded.
    bool moduleLoaded(const std::string& sysName) const;
    // Loads a module unless it is already there.
    Expected<void> loadModule(const std::string& module) const;
    // True when the kernel release is at least major.minor.
    bool kernelAtLeast(int major, int minor) const;
    // Whether this block device (or any partition of it) is mounted, from /proc/self/mountinfo.
    std::optional<std::string> mountPointOf(const std::string& device) const;
    std::optional<device::MountInfoEntry> mountOf(const std::string& device) const;
    // The size of a block device in bytes (/sys/class/block/NAME/size × 512).
    Expected<std::uint64_t> deviceBytes(const std::string& device) const;
};

// "/dev/sdb1" → "sdb1" (after resolving /dev/disk/by-… links on the live system).
std::string kernelName(const std::string& device);

} // namespace ssdk::cachectl
