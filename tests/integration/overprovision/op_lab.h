#pragma once

// Test support for spare-area tests on lab drives: layouts made with sfdisk/mkfs, files of
// known checksums, fsck, the kernel's partition sizes, and the sparse image's allocation.
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/base/sysfs_root.h"
#include "core/base/system_process_runner.h"
#include "core/device/discovery.h"
#include "core/lab/lab.h"
#include "core/overprovision/mounts.h"
#include "core/overprovision/spare_area.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/support/sparse_file.h"

namespace ssdk::test {

// Whether this machine has what a layout with a filesystem of fsType needs to be made, mounted
// and resized (ntfs-3g also needs FUSE).
inline bool filesystemToolsFor(const std::string& fsType) {
    if (fsType == "ntfs") {
        return !findExecutable("ntfsresize").empty() && !findExecutable("mkfs.ntfs").empty() &&
               !findExecutable("ntfs-3g").empty() && std::filesystem::exists("/dev/fuse");
    }
    if (fsType == "btrfs") {
        return !findExecutable("btrfs").empty() && !findExecutable("mkfs.btrfs").empty();
    }
    return true;
}

// Like ScratchState, but under /tmp/ssdk-op-itest-<pid>-<n>, and sweeping only leftovers of
// runs whose process is gone: other checkouts run their integration tests at the same time,
// and ScratchState's sweep of /tmp/ssdk-itest-* would detach these drives mid-test.
class OpScratch {
public:
    static constexpr std::string_view kPrefix = "/tmp/ssdk-op-itest-";

    OpScratch() {
        static std::atomic<int> counter{0};
        static const bool swept = [] {
            std::error_code ec;
            for (const auto& entry : std::filesystem::directory_iterator("/tmp", ec)) {
                const std::string path = entry.path().string();
                if (!path.starts_with(kPrefix)) {
                    continue;
                }
                const int pid = std::atoi(path.c_str() + kPrefix.size());
                if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) {
                    detachLoopsUnder(path + "/");
                    std::filesystem::remove_all(entry.path(), ec);
                }
            }
            return true;
        }();
        (void)swept;
        m_dir = std::string(kPrefix) + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        std::filesystem::create_directories(m_dir);
        ::setenv("XDG_STATE_HOME", m_dir.c_str(), 1);
        // The helper's own journals (root-only /var/lib/ssdkeeper on a real system).
        ::setenv("SSDK_PRIVILEGED_STATE_DIR", privilegedDir().c_str(), 1);
    }
    ~OpScratch() {
        detachLoopsUnder(m_dir.string() + "/");
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        ::unsetenv("XDG_STATE_HOME");
        ::unsetenv("SSDK_PRIVILEGED_STATE_DIR");
    }
    OpScratch(const OpScratch&) = delete;
    OpScratch& operator=(const OpScratch&) = delete;

    const std::filesystem::path& dir() const { return m_dir; }
    // Where the helper run by this test keeps its journals: $SSDK_PRIVILEGED_STATE_DIR.
    std::filesystem::path privilegedDir() const { return m_dir / "privileged"; }

private:
    std::filesystem::path m_dir;
};

struct OpLabDrive {
    lab::LabDrive drive;
    std::string device;    // /dev/loopN
    std::string partition; // /dev/loopNp1
};

// What /proc/self/mountinfo says of `partition` mounted at `mountPoint` now; nothing when it is
// not mounted there.
inline std::optional<device::MountInfoEntry> mountInfoOf(const std::string& partition,
                                                         const std::filesystem::path& mountPoint) {
    std::ifstream in("/proc/self/mountinfo");
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    return overprovision::findMount(text, partition, mountPoint.string());
}

inline ProcessResult mustRun(std::vector<std::string> argv, std::string input = {}) {
    SystemProcessRunner runner;
    auto result = runner.run({.argv = std::move(argv),
                              .timeout = std::chrono::minutes(5),
                              .standardInput = std::move(input),
                              .environment = {{"LC_ALL", "C"}}});
    REQUIRE(result);
    return *result;
}

// A lab drive of `size` with one partition from 1 MiB to the end holding `fsType` (mkfs),
// under a "gpt" or "dos" (MBR) table.
inline OpLabDrive makeOpLab(const std::string& name, Bytes size, const std::string& table,
                            const std::string& fsType) {
    SystemProcessRunner runner;
    lab::LabManager manager(lab::userStateDirectory(), SysfsRoot(), runner);
    lab::LabCreateRequest request;
    request.name = name;
    request.size = size;
    request.layout = "empty";
    auto drive = manager.create(request);
    REQUIRE(drive);
    OpLabDrive lab{*drive, drive->devicePath, drive->devicePath + "p1"};
    auto sfdisk = mustRun({"sfdisk", "--quiet", "--wipe", "always", lab.device},
                          "label: " + table + "\nstart=2048, type=" +
                              (table == "gpt" ? std::string("L") : std::string("83")) + "\n");
    INFO(sfdisk.standardError);
    REQUIRE(sfdisk.exitCode == 0);
    for (int attempt = 0; attempt < 100 && !std::filesystem::exists(lab.partition); ++attempt) {
        if (attempt == 5) {
            mustRun({"partx", "--add", lab.device});
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE(std::filesystem::exists(lab.partition));
    std::vector<std::string> mkfs;
    if (fsType == "ntfs") {
        mkfs = {"mkfs.ntfs", "-q", "-f", "-F", lab.partition};
    } else if (fsType == "xfs" || fsType == "btrfs") {
        mkfs = {"mkfs." + fsType, "-q", "-f", lab.partition};
    } else {
        // 4 KiB blocks, as on real drives: mke2fs picks 1 KiB for small filesystems, for which
        // resize2fs -P estimates a minimum near the whole size.
        mkfs = {"mkfs." + fsType, "-q", "-F", "-T", "default", lab.partition};
    }
    auto made = mustRun(mkfs);
    INFO(made.standardError);
    REQUIRE(made.exitCode == 0);
    return lab;
}

// 64-bit FNV-1a.
inline std::uint64_t checksum(const std::vector<char>& data) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (char c : data) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
    return hash;
}

inline std::vector<char> fileContent(std::size_t size, std::uint64_t seed) {
    std::vector<char> data(size);
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (std::size_t i = 0; i < size; i += 8) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        for (std::size_t b = 0; b < 8 && i + b < size; ++b) {
            data[i + b] = static_cast<char>((state >> (8 * b)) & 0xFF);
        }
    }
    return data;
}

inline double usedFraction(const std::filesystem::path& mountPoint) {
    struct statvfs info {};
    REQUIRE(::statvfs(mountPoint.c_str(), &info) == 0);
    return 1.0 - static_cast<double>(info.f_bfree) / static_cast<double>(info.f_blocks);
}

// Writes files of pseudo-random content until the filesystem is `fraction` full; returns
// name → checksum.
inline std::map<std::string, std::uint64_t> fillTo(const std::filesystem::path& mountPoint,
                                                   double fraction,
                                                   std::size_t fileSize = std::size_t{2} << 20) {
    std::map<std::string, std::uint64_t> files;
    for (std::uint64_t n = 0; usedFraction(mountPoint) < fraction; ++n) {
        const std::string name = "file-" + std::to_string(n) + ".bin";
        const auto data = fileContent(fileSize, n + 1);
        std::ofstream out(mountPoint / name, std::ios::binary);
        out.write(data.data(), static_cast<std::streamsize>(data.size()));
        out.close();
        REQUIRE(out);
        files[name] = checksum(data);
        REQUIRE(n < 100000);
    }
    mustRun({"sync"});
    return files;
}

// Like fillTo, but cheaper for large fills: after each file of pseudo-random content (2 MiB,
// checksummed) comes a file of `fillerPerFile` allocated with fallocate (blocks in use, never
// written), so the checksummed files spread over the whole filesystem while only about
// 2 MiB / (2 MiB + fillerPerFile) of the fill is written. Returns name → checksum of the
// written files; the fillers are named "filler-N.bin".
inline std::map<std::string, std::uint64_t> fillMixedTo(const std::filesystem::path& mountPoint,
                                                        double fraction, Bytes fillerPerFile) {
    constexpr std::size_t kFileSize = std::size_t{2} << 20;
    std::map<std::string, std::uint64_t> files;
    for (std::uint64_t n = 0; usedFraction(mountPoint) < fraction; ++n) {
        const std::string name = "file-" + std::to_string(n) + ".bin";
        const auto data = fileContent(kFileSize, n + 1);
        std::ofstream out(mountPoint / name, std::ios::binary);
        out.write(data.data(), static_cast<std::streamsize>(data.size()));
        out.close();
        REQUIRE(out);
        files[name] = checksum(data);
        if (usedFraction(mountPoint) >= fraction) {
            break;
        }
        const auto filler = mountPoint / ("filler-" + std::to_string(n) + ".bin");
        const int fd = ::open(filler.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
        REQUIRE(fd >= 0);
        const int allocated = ::posix_fallocate(fd, 0, static_cast<off_t>(fillerPerFile.value));
        ::close(fd);
        REQUIRE(allocated == 0);
        REQUIRE(n < 100000);
    }
    mustRun({"sync"});
    return files;
}

inline void checkFiles(const std::filesystem::path& mountPoint,
                       const std::map<std::string, std::uint64_t>& files) {
    std::size_t intact = 0;
    for (const auto& [name, sum] : files) {
        std::ifstream in(mountPoint / name, std::ios::binary);
        std::vector<char> data((std::istreambuf_iterator<char>(in)), {});
        INFO(name);
        CHECK(checksum(data) == sum);
        intact += checksum(data) == sum ? 1U : 0U;
    }
    CHECK(intact == files.size());
}

// e2fsck -f -n: 0 when clean.
inline int fsckExit(const std::string& partition) {
    auto result = mustRun({"e2fsck", "-f", "-n", partition});
    UNSCOPED_INFO(result.standardOutput << result.standardError);
    return result.exitCode;
}

// The kernel's size of partition 1 of a loop device, in bytes.
inline std::uint64_t kernelPartitionSize(const std::string& device) {
    const std::string name = std::filesystem::path(device).filename().string();
    return SysfsRoot().tryU64("/sys/block/" + name + "/" + name + "p1/size").value_or(0) * 512;
}

inline std::uint64_t allocatedTotal(const std::filesystem::path& file) {
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    return static_cast<std::uint64_t>(info.st_blocks) * 512;
}

// Whether this process may grow a mounted ext4 (EXT4_IOC_RESIZE_FS needs CAP_SYS_RESOURCE,
// which containers often drop).
inline bool canResizeExtOnline() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with("CapEff:")) {
            const auto caps = std::stoull(line.substr(7), nullptr, 16);
            return ((caps >> 24) & 1U) != 0; // CAP_SYS_RESOURCE
        }
    }
    return false;
}

// The options of a mount as a set ("rw,noatime" → {"noatime", "rw"}).
inline std::set<std::string> optionSet(const std::string& options) {
    std::set<std::string> set;
    std::stringstream in(options);
    for (std::string option; std::getline(in, option, ',');) {
        if (!option.empty()) {
            set.insert(option);
        }
    }
    return set;
}

// What a mount with `before` becomes when the helper mounts it again: every option kept,
// nosuid and nodev added (helperMountOptions).
inline std::set<std::string> remountedOptions(const std::string& before) {
    auto set = optionSet(before);
    set.insert({"nosuid", "nodev"});
    return set;
}

// The live device as discovery sees it.
inline device::Device discover(const std::string& device) {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto found = discovery.find(device);
    REQUIRE(found);
    return *found;
}

// The state directory the scratch state sets for lab drives (XDG_STATE_HOME).
inline std::string stateDir(const ScratchState& scratch) {
    return scratch.dir().string();
}

// The spare area as the helper runs it on this machine: live discovery, the system's process
// runner and disk editor, and journals in scratch's privileged directory.
struct SpareAreaHarness {
    SystemProcessRunner runner;
    overprovision::LinuxDiskEditor editor{runner};
    overprovision::SpareArea spare;

    explicit SpareAreaHarness(const OpScratch& scratch)
        : spare(device::Discovery(SysfsRoot(), device::makeSystemFsProber(SysfsRoot())), runner,
                editor,
                overprovision::JournalStore(
                    StateStore::open(scratch.privilegedDir() / "op").value())) {}
};

} // namespace ssdk::test
