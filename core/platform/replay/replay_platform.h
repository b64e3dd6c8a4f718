#pragma once
// The replay platform: the seams over recorded data only, in standard C++ (docs/architecture.md,
// "The replay platform"). Programs' output comes from a directory of recordings, block devices
// from a recorded tree (SysfsRoot, with udev's database for their filesystems); what needs a
// live system (partition edits, drive commands, the helper, tracing) is refused with
// Unsupported, "… is not available on the replay platform".

#include <filesystem>
#include <optional>

#include "core/base/replay_process_runner.h"
#include "core/platform/platform.h"

namespace ssdk::platform {

// Where makePlatform's ReplayPlatform finds its recordings.
inline constexpr const char* kReplayRecordingsVariable = "SSDK_REPLAY_RECORDINGS";

// Loads the recordings in dir into runner: every *.json file there is one program run,
//   {"argv": ["smartctl", "-j", "-a", "/dev/sda"], "exit_code": 0, "stdout": "…", "stderr": "…"}
// (exit_code, stdout and stderr optional), answered each time that argv runs.
Expected<void> loadRecordings(const std::filesystem::path& dir, ReplayProcessRunner& runner);

class ReplayPlatform final : public Platform {
public:
    // No recordings: every program is ToolMissing.
    ReplayPlatform() = default;
    // The recordings in dir (loadRecordings); when they cannot be loaded, every program run
    // fails with the reason.
    explicit ReplayPlatform(const std::filesystem::path& recordings);

    ProcessRunner& processRunner() override;
    std::shared_ptr<device::FsProber> makeFsProber(const SysfsRoot& root) const override;
    std::unique_ptr<overprovision::DiskEditor> makeDiskEditor(ProcessRunner& runner,
                                                              SysfsRoot root) const override;
    maintenance::erase::TransportFactory transports() const override;
    std::unique_ptr<perf::StatSource> makeStatSource(SysfsRoot root) const override;
    std::shared_ptr<rpc::Transport> makeHelperSession() const override;

private:
    class Runner final : public ProcessRunner {
    public:
        Expected<ProcessResult> run(const ProcessRequest& request) override;
        ReplayProcessRunner replay;
        std::optional<Error> broken; // why the recordings could not be loaded
    };
    Runner m_runner;
};

} // namespace ssdk::platform
