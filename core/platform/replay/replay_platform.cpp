#include "core/platform/replay/replay_platform.h"

#include <fstream>

#include "core/base/json.h"
#include "core/base/platform/replay/unavailable.h"

namespace ssdk::platform {

namespace {

// Partition tables are read by replaying `sfdisk --dump`; nothing is edited.
class ReplayDiskEditor final : public overprovision::DiskEditor {
public:
    explicit ReplayDiskEditor(ProcessRunner& runner)
        : m_runner(runner) {}

    Expected<std::string> dumpTable(const std::string& device) override {
        auto dump = runChecked(
            m_runner, {.argv = {"sfdisk", "--dump", device}, .environment = {{"LC_ALL", "C"}}});
        if (!dump) {
            return std::unexpected(dump.error().addContext("backing up the partition table"));
        }
        return std::move(dump->standardOutput);
    }
    Expected<Extent> partitionOnDisk(const std::string& device, std::uint32_t /*number*/) override {
        return std::unexpected(replay::unavailable("reading the partition table of " + device));
    }
    Expected<void> resizePartition(const std::string& device, std::uint32_t /*number*/,
                                   Bytes /*newSize*/) override {
        return std::unexpected(replay::unavailable("editing the partition table of " + device));
    }
    Expected<void> informKernel(const std::string& device, std::uint32_t /*number*/,
                                Bytes /*start*/, Bytes /*size*/) override {
        return std::unexpected(replay::unavailable("telling the kernel about " + device));
    }
    Expected<void> discard(const std::string& device, Bytes /*start*/, Bytes /*length*/) override {
        return std::unexpected(replay::unavailable("discarding on " + device));
    }

private:
    ProcessRunner& m_runner;
};

// There is no helper to start.
class ReplayHelperSession final : public rpc::Transport {
protected:
    Expected<Json> send(const std::string& verb, const Json& /*args*/,
                        const EventHandler& /*onEvent*/) override {
        return std::unexpected(replay::unavailable("the privileged helper (" + verb + ")"));
    }
    void cancelRunning() override {}
};

Expected<void> loadRecording(const std::filesystem::path& file, ReplayProcessRunner& runner) {
    std::ifstream in(file);
    const auto json = Json::parse(in, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("argv") ||
        !json["argv"].is_array() || json["argv"].empty()) {
        return fail(ErrorCode::Parse, file.string() + " is not a recording (an object with argv)");
    }
    try {
        runner.expect(json["argv"].get<std::vector<std::string>>(),
                      ProcessResult{.exitCode = json.value("exit_code", 0),
                                    .standardOutput = json.value("stdout", std::string()),
                                    .standardError = json.value("stderr", std::string())});
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, file.string() + ": " + error.what());
    }
    return {};
}

} // namespace

Expected<void> loadRecordings(const std::filesystem::path& dir, ReplayProcessRunner& runner) {
    std::error_code error;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    if (error) {
        return fail(ErrorCode::NotFound,
                    "reading the recordings in " + dir.string() + ": " + error.message());
    }
    std::ranges::sort(files);
    for (const auto& file : files) {
        if (auto loaded = loadRecording(file, runner); !loaded) {
            return loaded;
        }
    }
    return {};
}

ReplayPlatform::ReplayPlatform(const std::filesystem::path& recordings) {
    if (auto loaded = loadRecordings(recordings, m_runner.replay); !loaded) {
        m_runner.broken = loaded.error();
    }
}

Expected<ProcessResult> ReplayPlatform::Runner::run(const ProcessRequest& request) {
    if (broken) {
        return std::unexpected(*broken);
    }
    return replay.run(request);
}

ProcessRunner& ReplayPlatform::processRunner() {
    return m_runner;
}

std::shared_ptr<device::FsProber> ReplayPlatform::makeFsProber(const SysfsRoot& root) const {
    return device::makeSystemFsProber(root);
}

std::unique_ptr<overprovision::DiskEditor>
ReplayPlatform::makeDiskEditor(ProcessRunner& runner, SysfsRoot /*root*/) const {
    return std::make_unique<ReplayDiskEditor>(runner);
}

maintenance::erase::TransportFactory ReplayPlatform::transports() const {
    return maintenance::erase::systemTransports();
}

std::unique_ptr<perf::StatSource> ReplayPlatform::makeStatSource(SysfsRoot root) const {
    return std::make_unique<perf::SysfsStatSource>(std::move(root));
}

std::shared_ptr<rpc::Transport> ReplayPlatform::makeHelperSession() const {
    return std::make_shared<ReplayHelperSession>();
}

} // namespace ssdk::platform
