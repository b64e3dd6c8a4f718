// Crash safety (root): the apply runs in op_driver, which is SIGKILLed after each step (and
// once in the middle of resize2fs); the next run finds the journal and finishes or rolls back.
// Either way the filesystem is fsck-clean, mountable and every file is intact.
#include <csignal>
#include <dirent.h>
#include <spawn.h>
#include <sys/wait.h>

#include "core/overprovision/journal.h"
#include "core/overprovision/mounts.h"
#include "tests/integration/overprovision/op_lab.h"
#include "tests/support/skip.h"

using namespace ssdk;
using namespace ssdk::overprovision;
using namespace ssdk::test;
namespace fs = std::filesystem;

extern char** environ;

namespace {

const std::string kDriver = std::string(SSDK_BINARY_DIR) + "/bin/op_driver";

ProcessResult driver(std::vector<std::string> args) {
    args.insert(args.begin(), kDriver);
    SystemProcessRunner runner;
    auto result = runner.run({.argv = args, .timeout = std::chrono::minutes(5)});
    REQUIRE(result);
    return *result;
}

std::optional<Journal> loadJournal(const OpScratch& scratch, const std::string& labName) {
    JournalStore store(StateStore::open(scratch.privilegedDir() / "op").value());
    auto journal = store.load("lab-" + labName);
    if (!journal) {
        WARN("no journal: " << journal.error().describe());
        return std::nullopt;
    }
    return *journal;
}

// A /proc file of a process that may exit meanwhile (read errors give what was read so far;
// std::ifstream would throw from underflow).
std::string readProcFile(const std::string& path) {
    std::string text;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return text;
    }
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) {
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

// The pid of a child of `parent` whose command is `name` and that is not run with -P, or 0.
pid_t childNamed(pid_t parent, const std::string& name) {
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) {
        return 0;
    }
    pid_t found = 0;
    while (dirent* entry = ::readdir(proc)) {
        const std::string pid = entry->d_name;
        if (pid.empty() || pid[0] < '0' || pid[0] > '9') {
            continue;
        }
        const std::string line = readProcFile("/proc/" + pid + "/stat");
        const auto open = line.find('(');
        const auto close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close + 4 > line.size()) {
            continue;
        }
        const std::string comm = line.substr(open + 1, close - open - 1);
        const pid_t ppid = static_cast<pid_t>(std::atoi(line.c_str() + close + 4));
        const std::string args = readProcFile("/proc/" + pid + "/cmdline");
        // Not `resize2fs -P`, which only estimates (while planning). An exited child not yet
        // reaped (a zombie) keeps its name but has no command line: the planner's `resize2fs -P`
        // looked like that, and the test then killed the driver before its journal existed.
        if (comm == name && ppid == parent && !args.empty() &&
            args.find(std::string("\0-P\0", 4)) == std::string::npos) {
            found = static_cast<pid_t>(std::stoi(pid));
            break;
        }
    }
    ::closedir(proc);
    return found;
}

void mountAt(const std::string& fsType, const std::string& partition, const fs::path& mnt) {
    fs::create_directories(mnt);
    auto mounted =
        mustRun(fsType == "ntfs" ? std::vector<std::string>{"ntfs-3g", partition, mnt.string()}
                                 : std::vector<std::string>{"mount", partition, mnt.string()});
    INFO(mounted.standardError);
    REQUIRE(mounted.exitCode == 0);
}

void unmountAt(const fs::path& mnt) {
    auto result = mustRun({"umount", mnt.string()});
    INFO(result.standardError);
    REQUIRE(result.exitCode == 0);
}

// A lab drive filled with files of known checksums. btrfs stays mounted (it resizes only
// online, 25 % full so its chunks can move); the others are unmounted between operations.
struct Drive {
    const OpScratch& scratch;
    std::string fsType;
    OpLabDrive lab;
    std::map<std::string, std::uint64_t> files;
    std::uint64_t originalSize = 0;
    fs::path mnt;

    Drive(const OpScratch& s, const std::string& name, const std::string& table = "gpt",
          const std::string& type = "ext4")
        : scratch(s)
        , fsType(type)
        , lab(makeOpLab(name, Bytes::mib(type == "btrfs" ? 512 : 256), table, type))
        , mnt(s.dir() / ("mnt-" + name)) {
        mountAt(fsType, lab.partition, mnt);
        files = fillTo(mnt, fsType == "btrfs" ? 0.25 : 0.60);
        if (!online()) {
            unmountAt(mnt);
        }
        originalSize = kernelPartitionSize(lab.device);
    }
    ~Drive() {
        if (online()) {
            SystemProcessRunner runner;
            (void)runner.run({.argv = {"umount", mnt.string()}});
        }
    }
    Drive(const Drive&) = delete;
    Drive& operator=(const Drive&) = delete;

    bool online() const { return fsType == "btrfs"; }

    // The filesystem's own check is clean, it mounts, and every file is intact.
    void checkIntact() const {
        if (fsType == "ext4") {
            CHECK(fsckExit(lab.partition) == 0);
        } else if (fsType == "ntfs") {
            auto check =
                mustRun({"ntfsresize", "--check", "--force", "--no-progress-bar", lab.partition});
            INFO(check.standardOutput << check.standardError);
            CHECK(check.exitCode == 0);
        } else {
            unmountAt(mnt);
            auto check = mustRun({"btrfs", "check", "--readonly", lab.partition});
            INFO(check.standardOutput << check.standardError);
            CHECK(check.exitCode == 0);
        }
        if (online()) {
            mountAt(fsType, lab.partition, mnt);
            checkFiles(mnt, files);
            return;
        }
        mountAt(fsType, lab.partition, mnt);
        checkFiles(mnt, files);
        unmountAt(mnt);
    }
};

// After recovery: intact, and the sizes are the shrunk ones (finish) or the original (rollback);
// a finished shrink is undone so the next round starts from the original layout.
void recoverAndCheck(Drive& drive, const std::string& action) {
    auto recovered = driver({drive.scratch.dir().string(), action, drive.lab.device});
    INFO(recovered.standardOutput << recovered.standardError);
    REQUIRE(recovered.exitCode == 0);
    auto journal = loadJournal(drive.scratch, drive.lab.drive.name);
    REQUIRE(journal);
    CHECK_FALSE(journal->pending());
    drive.checkIntact();
    if (action == "finish") {
        CHECK(journal->phase == Phase::Completed);
        CHECK(kernelPartitionSize(drive.lab.device) < drive.originalSize);
        CHECK(kernelPartitionSize(drive.lab.device) == journal->toPartitionSize.value);
        auto undone = driver({drive.scratch.dir().string(), "undo", drive.lab.device});
        INFO(undone.standardError);
        REQUIRE(undone.exitCode == 0);
        drive.checkIntact();
    } else {
        CHECK(journal->phase == Phase::RolledBack);
    }
    CHECK(kernelPartitionSize(drive.lab.device) == drive.originalSize);
}

// Kills an apply right after `step` is recorded as done and recovers with `action`.
void killAndRecover(Drive& drive, const std::string& apply, std::size_t step,
                    const std::string& action) {
    INFO(drive.fsType << ": killed after step " << step << ", recovery: " << action);
    auto killed =
        driver({drive.scratch.dir().string(), apply, drive.lab.device, "20", std::to_string(step)});
    INFO(killed.standardError);
    REQUIRE(killed.exitCode == 128 + SIGKILL);
    auto journal = loadJournal(drive.scratch, drive.lab.drive.name);
    REQUIRE(journal);
    REQUIRE(journal->pending());
    CHECK(journal->steps[step].state == StepState::Done);
    if (step + 1 < journal->steps.size()) {
        CHECK(journal->steps[step + 1].state == StepState::Pending);
    }
    recoverAndCheck(drive, action);
}

} // namespace

TEST_CASE("a kill after every step of an apply is recovered without loss", "[overprovision]") {
    const OpScratch scratch;
    Drive drive(scratch, "op-kill");
    const std::size_t steps = stepsFor(Direction::Shrink).size();
    for (std::size_t step = 0; step < steps; ++step) {
        for (const std::string action : {"finish", "rollback"}) {
            if (step == 2) {
                // A new apply is refused while a journal is pending.
                auto killed = driver({scratch.dir().string(), "apply", drive.lab.device, "20",
                                      std::to_string(step)});
                REQUIRE(killed.exitCode == 128 + SIGKILL);
                auto again = driver({scratch.dir().string(), "apply", drive.lab.device, "20"});
                CHECK(again.exitCode == 1);
                CHECK(again.standardError.find("pending") != std::string::npos);
                recoverAndCheck(drive, action);
                continue;
            }
            killAndRecover(drive, "apply", step, action);
        }
    }
}

namespace {

// Short variants, one kill each (the GPT ext4 test above covers every step both ways): MBR ext4
// killed after the filesystem shrank and finished, GPT btrfs (mounted: it resizes online) killed
// after the partition shrank and finished, GPT NTFS killed after the partition shrank and rolled
// back.
void killOnceAndRecover(const OpScratch& scratch, const std::string& table, const std::string& type,
                        std::size_t step, const std::string& action) {
    INFO(table << " " << type << ": killed after step " << step << ", recovery: " << action);
    REQUIRE(filesystemToolsFor(type)); // scripts/setup installs ntfs-3g and btrfs-progs
    Drive drive(scratch, "op-kill-" + table + "-" + type, table, type);
    killAndRecover(drive, "apply", step, action);
}

} // namespace

TEST_CASE("kills on MBR ext4 and btrfs are recovered without loss", "[overprovision]") {
    const OpScratch scratch;
    killOnceAndRecover(scratch, "dos", "ext4", 2, "finish");
    killOnceAndRecover(scratch, "gpt", "btrfs", 3, "finish");
}

// On its own: ntfs-3g needs FUSE, which a container may not have.
TEST_CASE("a kill on NTFS is recovered without loss", "[overprovision]") {
    if (!fs::exists("/dev/fuse")) {
        skipTest("NTFS is mounted with ntfs-3g, which needs /dev/fuse (a container without it)");
    }
    const OpScratch scratch;
    killOnceAndRecover(scratch, "gpt", "ntfs", 3, "rollback");
}

// The unmounting apply of a mounted ext4: killed while it is unmounted, recovery mounts it
// again where and as it was, shrunk (finish) or as before (rollback).
TEST_CASE("a kill while unmounted for the shrink is recovered and remounted", "[overprovision]") {
    const OpScratch scratch;
    Drive drive(scratch, "op-kill-unmount");
    const fs::path mnt = drive.mnt;
    // Mounted with options of its own, which the remount must keep (adding nosuid,nodev);
    // unmounted at the end even when a check fails, before the drive is detached.
    MountGuard mounted(drive.lab.partition, mnt, "noatime,nodev");
    auto options = [&] {
        auto entry = mountInfoOf(drive.lab.partition, mnt);
        return entry ? entry->mountOptions : std::string("not mounted");
    };
    const std::string before = options();
    CHECK(before.find("noatime") != std::string::npos);
    for (const auto& [step, action] :
         std::vector<std::pair<std::size_t, std::string>>{{1, "finish"}, {4, "rollback"}}) {
        INFO("killed after step " << step << ", recovery: " << action);
        auto killed = driver({scratch.dir().string(), "apply-unmount", drive.lab.device, "20",
                              std::to_string(step)});
        INFO(killed.standardError);
        REQUIRE(killed.exitCode == 128 + SIGKILL);
        auto journal = loadJournal(scratch, drive.lab.drive.name);
        REQUIRE(journal);
        REQUIRE(journal->pending());
        CHECK(journal->steps[1].step == Step::Unmount);
        CHECK(options() == "not mounted");
        auto recovered = driver({scratch.dir().string(), action, drive.lab.device});
        INFO(recovered.standardOutput << recovered.standardError);
        REQUIRE(recovered.exitCode == 0);
        CHECK(optionSet(options()) == remountedOptions(before));
        checkFiles(mnt, drive.files);
        if (action == "finish") {
            CHECK(kernelPartitionSize(drive.lab.device) < drive.originalSize);
            // Undo grows it back online, mounted, where this process may resize ext4 online;
            // else unmounted, and mounted again as before.
            const bool online = canResizeExtOnline();
            if (!online) {
                WARN("no CAP_SYS_RESOURCE: ext4 cannot grow mounted here; undo unmounted");
                unmountAt(mnt);
            }
            auto undone = driver({scratch.dir().string(), "undo", drive.lab.device});
            INFO(undone.standardError);
            REQUIRE(undone.exitCode == 0);
            if (!online) {
                REQUIRE(mustRun({"mount", "-o", "noatime,nodev", drive.lab.partition, mnt.string()})
                            .exitCode == 0);
            }
        }
        CHECK(kernelPartitionSize(drive.lab.device) == drive.originalSize);
    }
    unmountAt(mnt);
    drive.checkIntact();
    CHECK(options() == "not mounted");
}

TEST_CASE("a kill in the middle of resize2fs is recovered without loss", "[overprovision]") {
    const OpScratch scratch;
    for (const std::string action : {"finish", "rollback"}) {
        // On a loaded machine the kill could land just after resize2fs finished and the
        // operation completed: that attempt caught nothing, so try again on a new drive.
        bool caught = false;
        for (int attempt = 0; attempt < 3 && !caught; ++attempt) {
            // A fresh drive each time: after one shrink and undo, the data already sits where a
            // second shrink would not move it, and resize2fs would be over too soon to catch.
            Drive drive(scratch, "op-mid-" + action + std::to_string(attempt));
            INFO("recovery: " << action << ", attempt " << attempt);
            const std::vector<std::string> args{kDriver, scratch.dir().string(), "apply",
                                                drive.lab.device, "20"};
            std::vector<char*> argv;
            for (const auto& arg : args) {
                argv.push_back(const_cast<char*>(arg.c_str()));
            }
            argv.push_back(nullptr);
            pid_t pid = 0;
            const std::string errors = (scratch.dir() / "op_driver.err").string();
            posix_spawn_file_actions_t actions;
            ::posix_spawn_file_actions_init(&actions);
            ::posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(),
                                               O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const int spawned =
                ::posix_spawn(&pid, kDriver.c_str(), &actions, nullptr, argv.data(), environ);
            ::posix_spawn_file_actions_destroy(&actions);
            REQUIRE(spawned == 0);
            pid_t resize = 0;
            int status = 0;
            bool exited = false;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
            while (resize == 0 && std::chrono::steady_clock::now() < deadline) {
                resize = childNamed(pid, "resize2fs");
                if (resize == 0 && ::waitpid(pid, &status, WNOHANG) == pid) {
                    exited = true;
                    break;
                }
            }
            std::ifstream errorFile(errors);
            const std::string errorText((std::istreambuf_iterator<char>(errorFile)), {});
            INFO("op_driver exited with status " << status
                                                 << " before resize2fs was seen: " << errorText);
            REQUIRE_FALSE(exited);
            REQUIRE(resize != 0);
            // Kill the driver first so it cannot record resize2fs failing, then resize2fs.
            ::kill(pid, SIGKILL);
            ::kill(resize, SIGKILL);
            REQUIRE(::waitpid(pid, &status, 0) == pid);
            CHECK(WIFSIGNALED(status));
            for (int i = 0; i < 200 && ::kill(resize, 0) == 0; ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            auto journal = loadJournal(scratch, drive.lab.drive.name);
            REQUIRE(journal); // the driver saves it before the first step
            if (!journal->pending()) {
                WARN("the kill came after the operation finished; trying again");
                continue;
            }
            caught = true;
            CHECK(journal->steps[2].step == Step::ShrinkFilesystem);
            CHECK(journal->steps[2].state == StepState::Started);
            recoverAndCheck(drive, action);
        }
        CHECK(caught);
    }
}
