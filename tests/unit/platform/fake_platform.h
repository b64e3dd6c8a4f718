#pragma once
// A test-made Platform (replayed processes, a prober that answers XFS, one fake helper
// session) and the recorded trees the platform tests read.

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/base/replay_process_runner.h"
#include "core/platform/platform.h"

namespace ssdk::test {

inline SysfsRoot recordedTree(const std::string& name) {
    return SysfsRoot(std::filesystem::path(SSDK_TEST_DATA_DIR) / "sysfs" / name);
}

inline const device::Device* named(const std::vector<device::Device>& devices,
                                   const std::string& name) {
    const auto found = std::ranges::find(devices, name, &device::Device::name);
    return found == devices.end() ? nullptr : &*found;
}

// Says every block device holds an XFS filesystem labelled "fake", and counts the questions.
class FakeProber final : public device::FsProber {
public:
    device::ProbeResult probe(const std::string& /*devPath*/,
                              const std::string& /*devno*/) const override {
        ++calls;
        device::ProbeResult result;
        result.filesystem = device::Filesystem{.type = "xfs", .label = "fake"};
        return result;
    }
    mutable std::atomic<int> calls{0};
};

// Answers every verb with {"fake": true}.
class FakeSession final : public rpc::Transport {
protected:
    Expected<Json> send(const std::string& /*verb*/, const Json& /*args*/,
                        const EventHandler& /*onEvent*/) override {
        return Json{{"fake", true}};
    }
    void cancelRunning() override {}
};

// A test-made Platform: replayed processes, the fake prober, one fake helper session.
class FakePlatform final : public platform::Platform {
public:
    ProcessRunner& processRunner() override { return runner; }
    std::shared_ptr<device::FsProber> makeFsProber(const SysfsRoot& /*root*/) const override {
        return prober;
    }
    std::unique_ptr<overprovision::DiskEditor> makeDiskEditor(ProcessRunner& /*runner*/,
                                                              SysfsRoot /*root*/) const override {
        return nullptr;
    }
    maintenance::erase::TransportFactory transports() const override { return {}; }
    std::unique_ptr<perf::StatSource> makeStatSource(SysfsRoot /*root*/) const override {
        return nullptr;
    }
    std::shared_ptr<rpc::Transport> makeHelperSession() const override { return session; }

    ReplayProcessRunner runner;
    std::shared_ptr<FakeProber> prober = std::make_shared<FakeProber>();
    std::shared_ptr<FakeSession> session = std::make_shared<FakeSession>();
};

} // namespace ssdk::test
